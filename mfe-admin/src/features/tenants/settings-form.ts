/** The settings form's text values and the PATCH /v1/tenants/{id}/settings body they make. Pure. */
import type { TenantSettings, TenantSettingsBody } from '@console/shared/contracts';

export interface SettingsValues {
  taxRate: string;
  volumeOverride: string;
  billingCustomerId: string;
  sendingPaused: boolean;
  enabledApplets: string[];
}

export type SettingsField = keyof TenantSettings;
export const SETTINGS_FIELDS: readonly SettingsField[] = [
  'tax_rate',
  'email_volume_override',
  'enabled_applets',
  'billing_customer_id',
  'sending_paused',
];

export function settingsValues(settings: TenantSettings): SettingsValues {
  return {
    taxRate: String(settings.tax_rate),
    volumeOverride: settings.email_volume_override === null ? '' : String(settings.email_volume_override),
    billingCustomerId: settings.billing_customer_id ?? '',
    sendingPaused: settings.sending_paused,
    enabledApplets: [...settings.enabled_applets],
  };
}

export type SettingsCheck =
  { ok: true; body: TenantSettingsBody } | { ok: false; fields: Partial<Record<SettingsField, string>> };

/**
 * The body for the form's values: a tax rate in percent 0–100; an empty override means the plan's
 * volume (null), else a whole number of e-mails; an empty billing customer id means none (null).
 */
export function settingsBody(values: SettingsValues): SettingsCheck {
  const fields: Partial<Record<SettingsField, string>> = {};
  const tax = Number(values.taxRate.trim());
  if (values.taxRate.trim() === '' || !Number.isFinite(tax) || tax < 0 || tax > 100)
    fields.tax_rate = 'Enter a tax rate from 0 to 100.';
  const override = values.volumeOverride.trim();
  const volume = Number(override);
  if (override !== '' && (!Number.isInteger(volume) || volume < 0))
    fields.email_volume_override = 'Enter a whole number of e-mails, or leave empty for the plan’s volume.';
  if (Object.keys(fields).length > 0) return { ok: false, fields };
  return {
    ok: true,
    body: {
      tax_rate: tax,
      email_volume_override: override === '' ? null : volume,
      enabled_applets: values.enabledApplets,
      billing_customer_id: values.billingCustomerId.trim() || null,
      sending_paused: values.sendingPaused,
    },
  };
}
