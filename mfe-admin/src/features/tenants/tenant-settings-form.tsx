import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Tenant, TenantSettings } from '@console/shared/contracts';
import { Button, TextField, notify } from '@console/shared/ui';
import { invalidateTenants, updateTenantSettings } from './api';
import { AppletPicker } from './applet-picker';
import { FormMessage, formErrorsFor, noErrors } from './form-errors';
import { SETTINGS_FIELDS, settingsBody, settingsValues, type SettingsField } from './settings-form';

/**
 * The platform admin's settings of a tenant (PATCH /v1/tenants/{id}/settings): tax rate, e-mail volume
 * override, enabled applets, sending paused, billing customer id. Errors show under the fields.
 */
export function TenantSettingsForm({ tenant, settings }: { tenant: Tenant; settings: TenantSettings }) {
  const client = useQueryClient();
  const [values, setValues] = useState(() => settingsValues(settings));
  const [errors, setErrors] = useState(noErrors<SettingsField>);
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof typeof values>(key: K, value: (typeof values)[K]) =>
    setValues((current) => ({ ...current, [key]: value }));

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const check = settingsBody(values);
    if (!check.ok) {
      setErrors({ fields: check.fields, message: null });
      return;
    }
    setSaving(true);
    setErrors(noErrors<SettingsField>());
    try {
      await updateTenantSettings(tenant._id, check.body);
      await invalidateTenants(client);
      notify.success('Settings have been saved.');
    } catch (failure) {
      setErrors(formErrorsFor(failure, SETTINGS_FIELDS, 'The settings could not be saved.'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form noValidate aria-label="Settings" className="space-y-3" onSubmit={(event) => void save(event)}>
      <h3 className="font-semibold text-slate-900">Settings</h3>
      <TextField
        label="Tax rate (%)"
        inputMode="decimal"
        value={values.taxRate}
        error={errors.fields.tax_rate}
        onChange={(event) => set('taxRate', event.target.value)}
      />
      <TextField
        label="E-mail volume override"
        hint="E-mails per billing period; leave empty for the plan’s volume."
        inputMode="numeric"
        value={values.volumeOverride}
        error={errors.fields.email_volume_override}
        onChange={(event) => set('volumeOverride', event.target.value)}
      />
      <AppletPicker
        value={values.enabledApplets}
        onChange={(next) => set('enabledApplets', next)}
        error={errors.fields.enabled_applets}
        disabled={saving}
      />
      <TextField
        label="Billing customer id"
        hint="The payment provider’s customer; empty: no automated billing."
        value={values.billingCustomerId}
        maxLength={255}
        error={errors.fields.billing_customer_id}
        onChange={(event) => set('billingCustomerId', event.target.value)}
      />
      <div>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={values.sendingPaused}
            onChange={(event) => set('sendingPaused', event.target.checked)}
          />
          Sending paused (no campaign of this tenant sends)
        </label>
        {errors.fields.sending_paused && <p className="mt-1 text-xs text-red-700">{errors.fields.sending_paused}</p>}
      </div>
      <FormMessage message={errors.message} />
      <Button type="submit" busy={saving}>
        Save settings
      </Button>
    </form>
  );
}
