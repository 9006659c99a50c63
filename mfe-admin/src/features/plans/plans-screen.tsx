import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { PageHeader } from '@console/shared/layout';
import type { Plan } from '@console/shared/contracts';
import { PLANS_KEY, fetchPlans } from './api';
import { PlanEditor } from './plan-editor';
import { PlansList } from './plans-list';

/** Plans (admin_plans): the catalogue the plan picker shows, each plan editable in a slide-over. */
export function PlansScreen() {
  const client = useQueryClient();
  const plans = useQuery({ queryKey: PLANS_KEY, queryFn: fetchPlans });
  const [editing, setEditing] = useState<Plan | null>(null);
  // A fresh form for every opening.
  const [opening, setOpening] = useState(0);

  return (
    <section>
      <PageHeader
        title="Plans"
        description="The plan catalogue: labels, features, e-mail volumes, prices and price ids, as customers see them in the plan picker."
      />
      {plans.isPending && (
        <p role="status" className="text-sm text-slate-500">
          Loading plans…
        </p>
      )}
      {plans.isError && (
        <p role="alert" className="text-sm text-red-700">
          Could not load the plans. {plans.error.message}
        </p>
      )}
      {plans.data && (
        <PlansList
          plans={plans.data}
          onEdit={(plan) => {
            setOpening((n) => n + 1);
            setEditing(plan);
          }}
        />
      )}
      <PlanEditor
        key={opening}
        plan={editing}
        onClose={() => setEditing(null)}
        onSaved={async (saved) => {
          client.setQueryData<Plan[]>(PLANS_KEY, (current) =>
            current?.map((plan) => (plan._id === saved._id ? saved : plan)),
          );
          await client.invalidateQueries({ queryKey: PLANS_KEY });
        }}
      />
    </section>
  );
}
