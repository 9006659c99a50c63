import { useId, useRef, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Dialog, FormFooter } from '@console/shared/overlays';
import { SelectField, TextField, notify } from '@console/shared/ui';
import { createTenant, fetchPlans, invalidateTenants, tenantKeys } from './api';
import { FormMessage, formErrorsFor, noErrors, type FormErrors } from './form-errors';

type Field = 'name' | 'plan_id' | 'owner_first_name' | 'owner_last_name' | 'owner_email';
const FIELDS: readonly Field[] = ['name', 'plan_id', 'owner_first_name', 'owner_last_name', 'owner_email'];
const EMPTY: Record<Field, string> = {
  name: '',
  plan_id: '',
  owner_first_name: '',
  owner_last_name: '',
  owner_email: '',
};

/** The form's own checks (the server checks again and its field errors show the same way). */
function ownErrors(values: Record<Field, string>): Partial<Record<Field, string>> {
  const out: Partial<Record<Field, string>> = {};
  if (!values.name.trim()) out.name = 'Enter the tenant name.';
  if (!values.plan_id) out.plan_id = 'Choose a plan.';
  if (!values.owner_first_name.trim()) out.owner_first_name = 'Enter the first name.';
  if (!values.owner_email.trim()) out.owner_email = 'Enter an e-mail address.';
  return out;
}

/**
 * Create tenant (POST /v1/tenants): name, plan, the owner's name and e-mail. The community is created
 * with it and the owner gets a welcome e-mail with a link to set a password. Mount with a key per opening.
 */
export function CreateTenantDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const client = useQueryClient();
  const formId = useId();
  const nameRef = useRef<HTMLInputElement>(null);
  const plans = useQuery({ queryKey: tenantKeys.plans, queryFn: fetchPlans, enabled: open });
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors<Field>);
  const [saving, setSaving] = useState(false);

  const field = (key: Field) => ({
    value: values[key],
    error: errors.fields[key],
    readOnly: saving,
    onChange: (event: { target: { value: string } }) => {
      setValues((current) => ({ ...current, [key]: event.target.value }));
      if (errors.fields[key]) setErrors((e) => ({ ...e, fields: { ...e.fields, [key]: undefined } }));
    },
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const own = ownErrors(values);
    if (Object.keys(own).length > 0) {
      setErrors({ fields: own, message: null });
      return;
    }
    setSaving(true);
    setErrors(noErrors<Field>());
    try {
      const tenant = await createTenant({
        name: values.name.trim(),
        plan_id: values.plan_id,
        owner_first_name: values.owner_first_name.trim(),
        owner_last_name: values.owner_last_name.trim(),
        owner_email: values.owner_email.trim(),
      });
      await invalidateTenants(client);
      notify.success(`${tenant.name} was created. The owner has been sent a welcome e-mail.`);
      onClose();
    } catch (failure) {
      setErrors(formErrorsFor(failure, FIELDS, 'The tenant could not be created.'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Create tenant"
      dismissible={!saving}
      size="lg"
      initialFocus={nameRef}
      testId="create-tenant-dialog"
      footer={<FormFooter formId={formId} busy={saving} submitLabel="Create tenant" onCancel={onClose} />}
    >
      <form id={formId} noValidate className="space-y-4" onSubmit={(event) => void submit(event)}>
        <TextField ref={nameRef} label="Name" maxLength={100} autoComplete="off" {...field('name')} />
        <SelectField
          label="Plan"
          value={values.plan_id}
          error={errors.fields.plan_id}
          disabled={saving}
          onChange={field('plan_id').onChange}
        >
          <option value="">Choose a plan</option>
          {(plans.data ?? []).map((plan) => (
            <option key={plan._id} value={plan._id}>
              {plan.name}
            </option>
          ))}
        </SelectField>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Owner’s first name" maxLength={100} autoComplete="off" {...field('owner_first_name')} />
          <TextField label="Owner’s last name" maxLength={100} autoComplete="off" {...field('owner_last_name')} />
        </div>
        <TextField label="Owner’s e-mail" type="email" maxLength={254} autoComplete="off" {...field('owner_email')} />
        <p className="text-sm text-slate-600">The owner gets a welcome e-mail with a link to set a password.</p>
        <FormMessage message={errors.message} />
      </form>
    </Dialog>
  );
}
