import { useId } from 'react';
import type { Permission, TeamPreset } from '@console/shared/access';
import { PERMISSION_LABELS } from '@console/shared/access';
import { customChoices, customStart, presetChoices, type AccessFieldErrors, type AccessGranter } from './access-choice';

export interface AccessValue {
  preset: TeamPreset;
  /** The custom set (kept while another preset is chosen, sent only for custom). */
  chosen: Permission[];
}

const CONTROL =
  'mt-0.5 h-4 w-4 shrink-0 border-slate-300 text-brand-600 accent-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed';

/**
 * The role radio group (each preset with its description; a preset the granter cannot give is disabled
 * with the reason) and, for custom, a checkbox per permission custom offers. Native inputs: arrow keys
 * move between roles, Space toggles a permission. Errors show under their group.
 */
export function AccessFields({
  granter,
  value,
  onChange,
  errors,
  disabled = false,
}: {
  granter: AccessGranter;
  value: AccessValue;
  onChange: (value: AccessValue) => void;
  errors: AccessFieldErrors;
  disabled?: boolean;
}) {
  const id = useId();
  const presets = presetChoices(granter);
  const offered = customChoices(granter);
  const choose = (preset: TeamPreset) =>
    onChange({
      preset,
      // Switching to custom starts from what the previous preset gave.
      chosen:
        preset === 'custom' && value.preset !== 'custom'
          ? customStart(granter, value.preset, value.chosen)
          : value.chosen,
    });
  const toggle = (permission: Permission, on: boolean) => {
    const next = on ? [...value.chosen, permission] : value.chosen.filter((p) => p !== permission);
    onChange({ ...value, chosen: offered.filter((p) => next.includes(p)) });
  };
  // A permissions error while a preset other than custom is chosen (the plan changed meanwhile) shows under the roles.
  const roleError = errors.preset ?? (value.preset === 'custom' ? undefined : errors.permissions);
  const presetErrorId = `${id}-preset-error`;
  const permissionsErrorId = `${id}-permissions-error`;

  return (
    <div className="space-y-4">
      <fieldset aria-describedby={roleError ? presetErrorId : undefined} disabled={disabled}>
        <legend className="text-sm font-medium text-slate-800">Role</legend>
        <div className="mt-2 space-y-2">
          {presets.map((choice) => {
            const inputId = `${id}-${choice.preset}`;
            const descriptionId = `${inputId}-description`;
            return (
              <div key={choice.preset} className="flex items-start gap-3">
                <input
                  id={inputId}
                  type="radio"
                  name={`${id}-preset`}
                  value={choice.preset}
                  checked={value.preset === choice.preset}
                  disabled={choice.refusal !== null}
                  aria-describedby={descriptionId}
                  onChange={() => choose(choice.preset)}
                  className={`${CONTROL} rounded-full`}
                />
                <div className="text-sm">
                  <label
                    htmlFor={inputId}
                    className={choice.refusal ? 'font-medium text-slate-400' : 'font-medium text-slate-900'}
                  >
                    {choice.label}
                  </label>
                  <p id={descriptionId} className="text-slate-500">
                    {choice.description}
                    {choice.refusal && <span className="block text-xs text-amber-800">{choice.refusal}</span>}
                  </p>
                </div>
              </div>
            );
          })}
        </div>
        {roleError && (
          <p id={presetErrorId} className="mt-2 text-xs text-red-700">
            {roleError}
          </p>
        )}
      </fieldset>

      {value.preset === 'custom' && (
        <fieldset aria-describedby={errors.permissions ? permissionsErrorId : undefined} disabled={disabled}>
          <legend className="text-sm font-medium text-slate-800">Permissions</legend>
          {offered.length === 0 ? (
            <p className="mt-2 text-sm text-slate-500">You hold no permission you could give.</p>
          ) : (
            <div className="mt-2 grid gap-2 sm:grid-cols-2">
              {offered.map((permission) => {
                const inputId = `${id}-perm-${permission}`;
                return (
                  <div key={permission} className="flex items-start gap-2">
                    <input
                      id={inputId}
                      type="checkbox"
                      checked={value.chosen.includes(permission)}
                      aria-invalid={errors.permissions ? true : undefined}
                      onChange={(event) => toggle(permission, event.target.checked)}
                      className={`${CONTROL} rounded`}
                    />
                    <label htmlFor={inputId} className="text-sm text-slate-800">
                      {PERMISSION_LABELS[permission]}
                    </label>
                  </div>
                );
              })}
            </div>
          )}
          {errors.permissions && (
            <p id={permissionsErrorId} className="mt-2 text-xs text-red-700">
              {errors.permissions}
            </p>
          )}
        </fieldset>
      )}
    </div>
  );
}
