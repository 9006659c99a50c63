import { useEffect, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { splitFormErrors } from '@console/shared/api';
import { SETTINGS_LIMITS, type GeneralSettings } from '@console/shared/contracts';
import { timeZoneLabel, timeZones } from '@console/shared/format';
import { loadUser } from '@console/shared/session';
import { Button, SelectField, TextArea, TextField, notify } from '@console/shared/ui';
import { SETTINGS_KEY, updateSettings } from './api';
import {
  SETTINGS_FIELDS,
  settingsErrorsOf,
  settingsPatchOf,
  settingsValuesOf,
  type SettingsErrors,
  type SettingsField,
  type SettingsValues,
} from './settings-rules';

export const SETTINGS_SAVED = 'Settings saved.';
const SAVE_FAILED = 'The settings could not be saved. Please try again.';
export const POSTAL_ADDRESS_HINT = 'Printed in the footer of your marketing e-mails, as anti-spam laws require.';
/** The community page's query key in mfe-onboarding (its title is the community name). */
const COMMUNITY_KEY = ['community'] as const;

type State =
  { status: 'idle' } | { status: 'saving' } | { status: 'failed'; fields: SettingsErrors; message: string | null };

/** Each field's element id, to focus the first one with an error. */
const fieldId = (field: SettingsField) => `settings-${field.replace(/_/g, '-')}`;

/** A failed save split into the form's fields and one alert for the rest. */
function failureOf(error: unknown): Extract<State, { status: 'failed' }> {
  return { status: 'failed', ...splitFormErrors(error, SETTINGS_FIELDS, SAVE_FAILED) };
}

/**
 * The community's name, the sender name and reply-to new e-mails start with, the postal address of
 * marketing e-mails' footers and the community's time zone. Save sends only the fields that changed.
 */
export function SettingsForm({ settings }: { settings: GeneralSettings }) {
  const client = useQueryClient();
  const [values, setValues] = useState<SettingsValues>(() => settingsValuesOf(settings));
  const [state, setState] = useState<State>({ status: 'idle' });
  const saving = state.status === 'saving';
  const fields = state.status === 'failed' ? state.fields : {};

  // After a failed save the first field with an error takes focus, once the form is enabled again
  // (our choice, as the change-password form does).
  useEffect(() => {
    if (state.status !== 'failed') return;
    const first = SETTINGS_FIELDS.find((field) => state.fields[field]);
    if (first) document.getElementById(fieldId(first))?.focus();
  }, [state]);

  const set = (name: SettingsField) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [name]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const patch = settingsPatchOf(settings, values);
    const own = settingsErrorsOf(patch);
    if (Object.keys(own).length > 0) {
      setState({ status: 'failed', fields: own, message: null });
      return;
    }
    setState({ status: 'saving' });
    try {
      // Nothing changed: no request, the stored settings stand as saved (our choice).
      const saved = Object.keys(patch).length > 0 ? await updateSettings(patch) : settings;
      client.setQueryData(SETTINGS_KEY, saved);
      setValues(settingsValuesOf(saved));
      setState({ status: 'idle' });
      notify.success(SETTINGS_SAVED);
      // The community page shows the name: its cached copy is stale (our choice: refetch on its next view).
      if (patch.community_name !== undefined) void client.invalidateQueries({ queryKey: COMMUNITY_KEY });
      // Members without their own zone follow the community's: the session user carries it (schedules start there).
      if (patch.time_zone !== undefined) {
        loadUser().catch((error: unknown) => console.error('[console] session user reload failed', error));
      }
    } catch (error) {
      setState(failureOf(error));
    }
  };

  const common = (name: SettingsField) => ({
    id: fieldId(name),
    value: values[name],
    error: fields[name],
    readOnly: saving,
    onChange: set(name),
  });
  const communityName = values.community_name.trim() || settings.community_name;

  return (
    <form noValidate className="max-w-xl space-y-5" onSubmit={(event) => void submit(event)}>
      <TextField
        label="Community name"
        required
        maxLength={SETTINGS_LIMITS.communityName}
        showCounter
        hint="Shown on your community page."
        {...common('community_name')}
      />
      <TextField
        label="Default sender name (optional)"
        maxLength={SETTINGS_LIMITS.senderName}
        placeholder={communityName}
        hint="New e-mails are sent with this name; without one they use the community name."
        {...common('default_sender_name')}
      />
      <TextField
        label="Default reply-to (optional)"
        type="email"
        autoComplete="email"
        maxLength={254}
        hint="Where replies to new e-mails go."
        {...common('default_reply_to')}
      />
      <TextArea
        label="Postal address"
        maxLength={SETTINGS_LIMITS.postalAddress}
        rows={3}
        hint={POSTAL_ADDRESS_HINT}
        {...common('postal_address')}
      />
      <SelectField
        id={fieldId('time_zone')}
        label="Community time zone"
        value={values.time_zone}
        onChange={set('time_zone')}
        disabled={saving}
        error={fields.time_zone}
      >
        {timeZones(values.time_zone).map((zone) => (
          <option key={zone} value={zone}>
            {timeZoneLabel(zone)}
          </option>
        ))}
      </SelectField>
      {state.status === 'failed' && state.message && (
        <p role="alert" className="text-sm text-red-700">
          {state.message}
        </p>
      )}
      <div className="flex justify-end">
        <Button type="submit" busy={saving}>
          {saving ? 'Saving...' : 'Save'}
        </Button>
      </div>
    </form>
  );
}
