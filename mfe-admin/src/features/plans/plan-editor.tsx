import { useId, useRef, useState, type FormEvent } from 'react';
import { TextField, notify } from '@console/shared/ui';
import { FormFooter, SlideOver } from '@console/shared/overlays';
import { PLAN_EDIT_LIMITS, type Plan } from '@console/shared/contracts';
import { updatePlan } from './api';
import { FeatureRows } from './feature-rows';
import {
  NO_ERRORS,
  PLAN_SAVED,
  parsePlanForm,
  planErrorsOf,
  planFormValues,
  type PlanFormErrors,
  type PlanFormValues,
} from './plan-form';
import { PricingTable } from './pricing-table';

/**
 * Edit one plan in a slide-over: label, the card's feature texts and the five pricing options.
 * Saved: toast 'Plan saved.', `onSaved` with the stored plan, close. Errors show under their inputs.
 * Mount with a key per opening for a fresh form.
 */
export function PlanEditor({
  plan,
  onClose,
  onSaved,
}: {
  /** The plan to edit; null: closed (the form stays while the panel slides out). */
  plan: Plan | null;
  onClose: () => void;
  onSaved: (plan: Plan) => void | Promise<void>;
}) {
  const formId = useId();
  const labelRef = useRef<HTMLInputElement>(null);
  // The plan this opening edits (the editor is keyed per opening).
  const [target] = useState(plan);
  const [values, setValues] = useState<PlanFormValues | null>(() => (plan ? planFormValues(plan) : null));
  const [errors, setErrors] = useState<PlanFormErrors>(NO_ERRORS);
  const [saving, setSaving] = useState(false);

  const set = <K extends keyof PlanFormValues>(field: K, value: PlanFormValues[K]) =>
    setValues((current) => (current ? { ...current, [field]: value } : current));

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (saving || !target || !values) return;
    const parsed = parsePlanForm(values);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    setSaving(true);
    setErrors(NO_ERRORS);
    try {
      const saved = await updatePlan(target._id, parsed.body);
      notify.success(PLAN_SAVED);
      await onSaved(saved);
      onClose();
    } catch (error) {
      setErrors(planErrorsOf(error, values));
    } finally {
      setSaving(false);
    }
  };

  return (
    <SlideOver
      open={plan !== null}
      onClose={onClose}
      title={target ? `Edit ${target.name}` : 'Edit plan'}
      description="What the plan picker shows: label, features, e-mail volumes, prices and their price ids."
      dismissible={!saving}
      initialFocus={labelRef}
      size="xl"
      testId="plan-editor"
      footer={<FormFooter formId={formId} busy={saving} submitLabel="Save" onCancel={onClose} />}
    >
      {target && values && (
        <form id={formId} noValidate onSubmit={(event) => void save(event)} className="space-y-6">
          {errors.messages.length > 0 && (
            <div role="alert" className="rounded-control bg-red-50 px-3 py-2 text-sm text-red-800">
              {errors.messages.map((message) => (
                <p key={message}>{message}</p>
              ))}
            </div>
          )}
          <TextField
            ref={labelRef}
            label="Label"
            maxLength={PLAN_EDIT_LIMITS.label}
            showCounter
            value={values.label}
            disabled={saving}
            error={errors.fields.label}
            onChange={(event) => set('label', event.target.value)}
          />
          <FeatureRows
            features={values.features}
            errors={errors.fields}
            disabled={saving}
            onChange={(features) => set('features', features)}
          />
          <section aria-labelledby={`${formId}-pricing`}>
            <h3 id={`${formId}-pricing`} className="text-sm font-medium text-slate-800">
              Pricing options
            </h3>
            <p className="mb-2 text-xs text-slate-500">
              E-mails with dots as thousands separators (10.000); prices in US dollars for the whole period.
            </p>
            <PricingTable
              planName={target.name}
              pricing={values.pricing}
              errors={errors.fields}
              disabled={saving}
              onChange={(pricing) => set('pricing', pricing)}
            />
          </section>
        </form>
      )}
    </SlideOver>
  );
}
