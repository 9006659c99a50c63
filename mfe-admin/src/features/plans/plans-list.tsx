import { Button } from '@console/shared/ui';
import type { Plan } from '@console/shared/contracts';
import { monthlyRange, volumeRange } from './plan-form';

/** The four plans with their label, e-mail volumes and monthly prices, each with Edit. */
export function PlansList({ plans, onEdit }: { plans: readonly Plan[]; onEdit: (plan: Plan) => void }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50 text-left text-xs font-semibold text-slate-500 uppercase">
          <tr>
            <th scope="col" className="px-4 py-3">
              Plan
            </th>
            <th scope="col" className="px-4 py-3">
              Label
            </th>
            <th scope="col" className="px-4 py-3">
              E-mails
            </th>
            <th scope="col" className="px-4 py-3">
              Monthly
            </th>
            <th scope="col" className="px-4 py-3">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {plans.map((plan) => (
            <tr key={plan._id} data-testid={`plan-row-${plan.key}`}>
              <th scope="row" className="px-4 py-3 text-left font-semibold text-slate-900">
                {plan.name}
              </th>
              <td className="px-4 py-3 text-slate-700">{plan.label}</td>
              <td className="px-4 py-3 text-slate-700 tabular-nums">{volumeRange(plan)}</td>
              <td className="px-4 py-3 text-slate-700 tabular-nums">{monthlyRange(plan)}</td>
              <td className="px-4 py-3 text-right">
                <Button variant="secondary" size="sm" aria-label={`Edit ${plan.name}`} onClick={() => onEdit(plan)}>
                  Edit
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
