import { useEffect, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError, splitFormErrors } from '@console/shared/api';
import type { Profile } from '@console/shared/contracts';
import { timeZoneLabel, timeZones } from '@console/shared/format';
import { loadUser } from '@console/shared/session';
import { Button, ImageField, SelectField, TextField, notify } from '@console/shared/ui';
import { PROFILE_KEY, updateProfile, uploadAvatar } from './api';
import { EmailSection } from './email-section';
import {
  AVATAR_TYPES,
  MAX_AVATAR_BYTES,
  PROFILE_FIELDS,
  avatarSrc,
  firstErrorField,
  profileErrorsOf,
  profilePatchOf,
  valuesOf,
  type AvatarChoice,
  type ProfileErrors,
  type ProfileField,
  type ProfileValues,
} from './profile-rules';

export const PROFILE_SAVED = 'Your profile has been saved.';
const SAVE_FAILED = 'Your profile could not be saved. Please try again.';
const UPLOAD_FAILED = 'The avatar could not be uploaded. Please try again.';

/** Each field's element id, to focus the first one with an error. */
const fieldId = (field: ProfileField) => `profile-${field.replace('_', '-')}`;

type State =
  { status: 'idle' } | { status: 'saving' } | { status: 'failed'; fields: ProfileErrors; message: string | null };

/** A failed save split into the form's fields and one alert for the rest. */
function failureOf(error: unknown): Extract<State, { status: 'failed' }> {
  return { status: 'failed', ...splitFormErrors(error, PROFILE_FIELDS, SAVE_FAILED) };
}

/**
 * First and last name, e-mail (changed through its own confirmation, see EmailSection), avatar (uploaded on save) and
 * the member's own time zone ('Community default' follows the community's). Save sends only what
 * changed, then reloads the session user so the header shows the new name and avatar.
 */
export function ProfileForm({ profile }: { profile: Profile }) {
  const client = useQueryClient();
  const [values, setValues] = useState<ProfileValues>(() => valuesOf(profile));
  const [avatar, setAvatar] = useState<AvatarChoice>({ kind: 'kept' });
  const [state, setState] = useState<State>({ status: 'idle' });
  const saving = state.status === 'saving';
  const fields = state.status === 'failed' ? state.fields : {};

  // After a failed save the first field with an error takes focus, once the form is enabled again
  // (our choice, as the change-password form does).
  useEffect(() => {
    if (state.status !== 'failed') return;
    const first = firstErrorField(state.fields);
    if (first) document.getElementById(fieldId(first))?.focus();
  }, [state]);

  const set = (name: keyof ProfileValues) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [name]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    // The names and zone are checked before anything is uploaded.
    const own = profileErrorsOf(profilePatchOf(profile, values, undefined));
    if (Object.keys(own).length > 0) {
      setState({ status: 'failed', fields: own, message: null });
      return;
    }
    setState({ status: 'saving' });
    let avatarUrl: string | null | undefined;
    if (avatar.kind === 'removed') avatarUrl = null;
    if (avatar.kind === 'picked') {
      try {
        avatarUrl = await uploadAvatar(avatar.image.file);
      } catch (error) {
        // A refused type or size comes back as the gateway's message.
        const message = error instanceof ApiError && error.message ? error.message : UPLOAD_FAILED;
        setState({ status: 'failed', fields: { avatar: message }, message: null });
        return;
      }
    }
    const patch = profilePatchOf(profile, values, avatarUrl);
    try {
      // Nothing changed: no request, the stored profile stands as saved (our choice).
      const saved = Object.keys(patch).length > 0 ? await updateProfile(patch) : profile;
      client.setQueryData(PROFILE_KEY, saved);
      setValues(valuesOf(saved));
      setAvatar({ kind: 'kept' });
      setState({ status: 'idle' });
      notify.success(PROFILE_SAVED);
      // The header reads the session user: reload it (a failure here leaves the save done).
      if (Object.keys(patch).length > 0) {
        loadUser().catch((error: unknown) => console.error('[console] session user reload failed', error));
      }
    } catch (error) {
      setState(failureOf(error));
    }
  };

  const text = (name: 'first_name' | 'last_name') => ({
    id: fieldId(name),
    value: values[name],
    error: fields[name],
    readOnly: saving,
    onChange: set(name),
  });

  return (
    <form noValidate data-testid="profile" className="max-w-xl space-y-5" onSubmit={(event) => void submit(event)}>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="First name" autoComplete="given-name" required {...text('first_name')} />
        <TextField label="Last name" autoComplete="family-name" {...text('last_name')} />
      </div>
      <EmailSection profile={profile} />
      <ImageField
        id={fieldId('avatar')}
        label="Avatar"
        src={avatarSrc(profile, avatar)}
        accept={AVATAR_TYPES}
        maxBytes={MAX_AVATAR_BYTES}
        hint="PNG, JPEG, GIF or WebP, up to 5 MB."
        clearText="Remove"
        disabled={saving}
        error={fields.avatar}
        onSelect={(image) => setAvatar({ kind: 'picked', image })}
        onClear={() => setAvatar({ kind: 'removed' })}
      />
      <SelectField
        id={fieldId('time_zone')}
        label="Time zone"
        value={values.time_zone}
        onChange={set('time_zone')}
        disabled={saving}
        error={fields.time_zone}
      >
        <option value="">Community default ({timeZoneLabel(profile.community_time_zone)})</option>
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
