import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Plan, Tenant, TenantUpdateBody } from '@console/shared/contracts';
import { Button, SelectField, TextField, notify } from '@console/shared/ui';
import { invalidateTenants, updateTenant } from './api';
import { FormMessage, formErrorsFor, noErrors } from './form-errors';

type Field = 'name' | 'plan_id';
const FIELDS: readonly Field[] = ['name', 'plan_id'];

/**
 * A tenant's name and plan (PATCH /v1/tenants/{id}): the body carries only what changed, never
 * last_warning_sent_date or last_limit_sent_date (spec section 7). Errors show under the fields.
 */
export function TenantEditForm({ tenant, plans }: { tenant: Tenant; plans: readonly Plan[] }) {
  const client = useQueryClient();
  const [name, setName] = useState(tenant.name);
  const [planId, setPlanId] = useState(tenant.plan._id);
  const [errors, setErrors] = useState(noErrors<Field>);
  const [saving, setSaving] = useState(false);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    if (!name.trim()) {
      setErrors({ fields: { name: 'Enter the tenant name.' }, message: null });
      return;
    }
    const body: TenantUpdateBody = {};
    if (name.trim() !== tenant.name) body.name = name.trim();
    if (planId !== tenant.plan._id) body.plan_id = planId;
    if (Object.keys(body).length === 0) return;
    setSaving(true);
    setErrors(noErrors<Field>());
    try {
      await updateTenant(tenant._id, body);
      await invalidateTenants(client);
      notify.success('Changes have been saved.');
    } catch (failure) {
      setErrors(formErrorsFor(failure, FIELDS, 'The tenant could not be saved.'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form noValidate aria-label="Name and plan" className="space-y-3" onSubmit={(event) => void save(event)}>
      <h3 className="font-semibold text-slate-900">Name and plan</h3>
      <TextField
        label="Name"
        value={name}
        maxLength={100}
        error={errors.fields.name}
        onChange={(event) => setName(event.target.value)}
      />
      <SelectField
        label="Plan"
        value={planId}
        error={errors.fields.plan_id}
        onChange={(event) => setPlanId(event.target.value)}
      >
        {plans.length === 0 && <option value={tenant.plan._id}>{tenant.plan.name}</option>}
        {plans.map((plan) => (
          <option key={plan._id} value={plan._id}>
            {plan.name}
          </option>
        ))}
      </SelectField>
      <FormMessage message={errors.message} />
      <Button type="submit" busy={saving}>
        Save
      </Button>
    </form>
  );
}
