import { useId, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@console/shared/router';
import { formErrorsOf } from '@console/shared/api';
import { Button, TextArea, TextField, notify } from '@console/shared/ui';
import { APPLET_LIMITS, APPLET_MESSAGES, isHttpUrl, type Applet } from '@console/shared/contracts';
import { PLANS_KEY, fetchPlans } from '../plans/api';
import { createApplet, inspectManifest, invalidateApplets, updateApplet } from './api';
import {
  appletFormValues,
  moduleAfterCheck,
  moduleChoices,
  parseAppletForm,
  togglePlan,
  type AppletFieldErrors,
  type AppletFormValues,
} from './applet-form-values';
import { ManifestCheck } from './manifest-check';

export const APPLET_SAVED = 'Applet saved.';
const CHECKBOX =
  'size-4 rounded border-slate-300 text-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600';

interface Checked {
  url: string;
  name: string;
  exposes: string[];
}

/**
 * Create or edit an applet: name, slug, description, icon, the manifest address with Check (the gateway reads
 * the manifest; the module select offers what it exposes), the plans that include it, enabled. Server errors
 * show under their fields (spec section 8: the save returns the server's error body). Saved: toast, back to
 * the list, which reloads (spec section 4).
 */
export function AppletForm({ applet }: { applet: Applet | null }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const formId = useId();
  const plans = useQuery({ queryKey: PLANS_KEY, queryFn: fetchPlans });
  const [values, setValues] = useState<AppletFormValues>(() => appletFormValues(applet));
  const [errors, setErrors] = useState<AppletFieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [checking, setChecking] = useState(false);
  const [checked, setChecked] = useState<Checked | null>(null);

  const set = <K extends keyof AppletFormValues>(field: K, value: AppletFormValues[K]) =>
    setValues((current) => ({ ...current, [field]: value }));
  const setError = (field: keyof AppletFieldErrors, error: string | undefined) =>
    setErrors((current) => ({ ...current, [field]: error }));

  // What the manifest exposes counts only for the address it was read from.
  const current = checked && checked.url === values.manifest_url.trim() ? checked : null;
  const choices = moduleChoices(current?.exposes ?? null, values.module);

  const check = async () => {
    const url = values.manifest_url.trim();
    if (!isHttpUrl(url)) {
      setError('manifest_url', APPLET_MESSAGES.url);
      return;
    }
    setChecking(true);
    try {
      const manifest = await inspectManifest(url);
      setChecked({ url, name: manifest.name, exposes: manifest.exposes });
      setValues((v) => ({ ...v, module: moduleAfterCheck(manifest.exposes, v.module) }));
      setErrors((e) => ({ ...e, manifest_url: undefined, module: undefined }));
    } catch (error) {
      setChecked(null);
      const found = formErrorsOf(error);
      setError('manifest_url', found.fields.manifest_url ?? found.message ?? undefined);
    } finally {
      setChecking(false);
    }
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const parsed = parseAppletForm(values);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    setSaving(true);
    setErrors({});
    setMessage(null);
    try {
      if (applet) await updateApplet({ _id: applet._id, ...parsed.body });
      else await createApplet(parsed.body);
      // Spec section 7: the default toast time (the short one is for widget toasts), like other saves.
      notify.success(APPLET_SAVED);
      await invalidateApplets(client);
      void navigate('/applets');
    } catch (error) {
      const found = formErrorsOf(error, 'The applet could not be saved. Please try again.');
      const fields: AppletFieldErrors = {};
      const other: string[] = [];
      for (const [field, text] of Object.entries(found.fields)) {
        if (field in values) fields[field as keyof AppletFieldErrors] = text;
        else other.push(text);
      }
      setErrors(fields);
      setMessage(found.message ?? other[0] ?? null);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      id={formId}
      noValidate
      onSubmit={(event) => void save(event)}
      className="max-w-2xl space-y-5 rounded-panel border border-slate-200 bg-white p-6"
    >
      {message && (
        <p role="alert" className="rounded-control bg-red-50 px-3 py-2 text-sm text-red-800">
          {message}
        </p>
      )}
      <TextField
        label="Name"
        maxLength={APPLET_LIMITS.name}
        value={values.name}
        error={errors.name}
        onChange={(event) => set('name', event.target.value)}
      />
      <TextField
        label="Slug"
        maxLength={APPLET_LIMITS.slug}
        autoComplete="off"
        value={values.slug}
        error={errors.slug}
        hint="2 to 50 lowercase letters, digits and hyphens; unique."
        onChange={(event) => set('slug', event.target.value)}
      />
      <TextArea
        label="Description"
        rows={3}
        maxLength={APPLET_LIMITS.description}
        value={values.description}
        error={errors.description}
        onChange={(event) => set('description', event.target.value)}
      />
      <TextField
        label="Icon URL"
        type="url"
        inputMode="url"
        autoComplete="off"
        placeholder="https://cdn.example.com/icon.svg"
        maxLength={APPLET_LIMITS.url}
        value={values.icon}
        error={errors.icon}
        onChange={(event) => set('icon', event.target.value)}
      />
      <ManifestCheck
        manifestUrl={values.manifest_url}
        module={values.module}
        choices={choices}
        checked={current}
        checking={checking}
        errors={{ manifest_url: errors.manifest_url, module: errors.module }}
        disabled={saving}
        onManifestUrl={(value) => set('manifest_url', value)}
        onModule={(value) => set('module', value)}
        onCheck={() => void check()}
      />
      <fieldset aria-describedby={errors.plan_ids ? `${formId}-plans-error` : undefined}>
        <legend className="text-sm font-medium text-slate-800">Plans that include it</legend>
        {plans.isPending && <p className="mt-2 text-sm text-slate-500">Loading plans…</p>}
        {plans.isError && <p className="mt-2 text-sm text-red-700">Could not load the plans.</p>}
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {plans.data?.map((plan) => (
            <label key={plan._id} className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                className={CHECKBOX}
                checked={values.plan_ids.includes(plan._id)}
                onChange={(event) => set('plan_ids', togglePlan(values.plan_ids, plan._id, event.target.checked))}
              />
              {plan.name}
            </label>
          ))}
        </div>
        {errors.plan_ids && (
          <p id={`${formId}-plans-error`} className="mt-2 text-xs text-red-700">
            {errors.plan_ids}
          </p>
        )}
      </fieldset>
      <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
        <input
          type="checkbox"
          className={CHECKBOX}
          checked={values.enabled}
          onChange={(event) => set('enabled', event.target.checked)}
        />
        Enabled
      </label>
      <div className="flex justify-end gap-2 border-t border-slate-200 pt-4">
        <Button variant="secondary" onClick={() => void navigate('/applets')} disabled={saving}>
          Cancel
        </Button>
        <Button type="submit" busy={saving}>
          Save
        </Button>
      </div>
    </form>
  );
}
