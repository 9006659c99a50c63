/** General Settings' form rules: the values, what a save sends, and the form's own check. Pure. */
import { GeneralSettingsPatch, type GeneralSettings } from '@console/shared/contracts';

/** The form's text; optional fields hold '' for "not set". */
export interface SettingsValues {
  community_name: string;
  default_sender_name: string;
  default_reply_to: string;
  postal_address: string;
  time_zone: string;
}
export type SettingsField = keyof SettingsValues;
export type SettingsErrors = Partial<Record<SettingsField, string>>;

/** The fields in the form's order (the first one with an error takes focus). */
export const SETTINGS_FIELDS: readonly SettingsField[] = [
  'community_name',
  'default_sender_name',
  'default_reply_to',
  'postal_address',
  'time_zone',
];
const OPTIONAL = ['default_sender_name', 'default_reply_to', 'postal_address'] as const;

export function settingsValuesOf(settings: GeneralSettings): SettingsValues {
  return {
    community_name: settings.community_name,
    default_sender_name: settings.default_sender_name ?? '',
    default_reply_to: settings.default_reply_to ?? '',
    postal_address: settings.postal_address ?? '',
    time_zone: settings.time_zone,
  };
}

/**
 * The PATCH body: only the fields that differ from the stored settings, compared trimmed (the gateway
 * trims); an optional field emptied is sent as null, which clears it (contracts/account.ts).
 */
export function settingsPatchOf(settings: GeneralSettings, values: SettingsValues): GeneralSettingsPatch {
  const patch: GeneralSettingsPatch = {};
  if (values.community_name.trim() !== settings.community_name) patch.community_name = values.community_name;
  for (const field of OPTIONAL) {
    const next = values[field].trim();
    if (next !== (settings[field] ?? '')) patch[field] = next === '' ? null : values[field];
  }
  if (values.time_zone !== settings.time_zone) patch.time_zone = values.time_zone;
  return patch;
}

/** The first message per field of the contract's check (the gateway checks with the same schema). */
export function settingsErrorsOf(patch: GeneralSettingsPatch): SettingsErrors {
  const parsed = GeneralSettingsPatch.safeParse(patch);
  if (parsed.success) return {};
  const errors: SettingsErrors = {};
  for (const issue of parsed.error.issues) {
    const field = SETTINGS_FIELDS.find((f) => f === issue.path[0]);
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}
