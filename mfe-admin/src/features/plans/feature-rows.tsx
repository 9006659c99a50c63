import { Button, TextField } from '@console/shared/ui';
import { PLAN_EDIT_LIMITS } from '@console/shared/contracts';
import type { FieldMessages } from './plan-form';

/** The plan card's feature texts: one input per row (120 characters) with Remove, and Add (1 to 12 rows). */
export function FeatureRows({
  features,
  onChange,
  errors,
  disabled,
}: {
  features: readonly string[];
  onChange: (features: string[]) => void;
  errors: FieldMessages;
  disabled: boolean;
}) {
  const listError = errors.features;
  return (
    <fieldset aria-describedby={listError ? 'plan-features-error' : undefined}>
      <legend className="mb-1 text-sm font-medium text-slate-800">Features</legend>
      <p className="mb-2 text-xs text-slate-500">The lines of the plan card, in order.</p>
      <ul className="space-y-2">
        {features.map((text, index) => (
          // Rows have no identity but their place.
          <li key={index} className="flex items-start gap-2">
            <TextField
              label={`Feature ${index + 1}`}
              hideLabel
              containerClassName="flex-1"
              maxLength={PLAN_EDIT_LIMITS.feature}
              value={text}
              disabled={disabled}
              error={errors[`features.${index}`]}
              onChange={(event) => onChange(features.map((f, i) => (i === index ? event.target.value : f)))}
            />
            <Button
              variant="secondary"
              size="sm"
              className="mt-0.5"
              aria-label={`Remove feature ${index + 1}`}
              disabled={disabled || features.length <= 1}
              onClick={() => onChange(features.filter((_, i) => i !== index))}
            >
              Remove
            </Button>
          </li>
        ))}
      </ul>
      {listError && (
        <p id="plan-features-error" className="mt-1 text-xs text-red-700">
          {listError}
        </p>
      )}
      <Button
        variant="link"
        className="mt-2"
        disabled={disabled || features.length >= PLAN_EDIT_LIMITS.features}
        onClick={() => onChange([...features, ''])}
      >
        Add feature
      </Button>
    </fieldset>
  );
}
