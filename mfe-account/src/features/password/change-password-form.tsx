import { useMemo, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '@console/shared/api';
import { replaceSessionToken, type ConsoleUser } from '@console/shared/session';
import { Button, TextField, notify } from '@console/shared/ui';
import { changePassword } from './api';
import {
  PASSWORD_RULE,
  changePasswordErrors,
  type ChangePasswordErrors,
  type ChangePasswordField,
  type ChangePasswordValues,
} from './password-rules';
import { StrengthMeter, usePasswordStrength } from '@console/shared/password-meter';
import { passwordProblem } from '@console/shared/passwords';

export const PASSWORD_CHANGED = 'Your password has been changed. Other sessions have been signed out.';
const THROTTLED = 'Too many attempts. Please wait a moment and try again.';
const FAILED = 'Your password could not be changed. Please try again.';

const EMPTY: ChangePasswordValues = { current_password: '', new_password: '', repeat: '' };
const FIELDS: readonly ChangePasswordField[] = ['current_password', 'new_password', 'repeat'];

type State =
  { status: 'idle' } | { status: 'busy' } | { status: 'failed'; fields: ChangePasswordErrors; message: string | null };

/** The server's answer split into the form's fields and one alert (429 and anything without a field). */
function failureOf(error: unknown): Extract<State, { status: 'failed' }> {
  if (!(error instanceof ApiError)) return { status: 'failed', fields: {}, message: FAILED };
  if (error.status === 429) return { status: 'failed', fields: {}, message: error.body.message || THROTTLED };
  const all = error.fieldErrors();
  const fields: ChangePasswordErrors = {};
  for (const field of FIELDS) if (all[field]) fields[field] = all[field];
  const message = Object.keys(fields).length > 0 ? null : error.body.message || Object.values(all)[0] || FAILED;
  return { status: 'failed', fields, message };
}

/**
 * Current password, new password (rule and strength meter), repeat; POST /v1/auth/change-password.
 * On success the new token replaces this session's (the others end) and the form empties.
 */
export function ChangePasswordForm({ user }: { user: ConsoleUser }) {
  const [values, setValues] = useState(EMPTY);
  const [state, setState] = useState<State>({ status: 'idle' });
  const refs = {
    current_password: useRef<HTMLInputElement>(null),
    new_password: useRef<HTMLInputElement>(null),
    repeat: useRef<HTMLInputElement>(null),
  };
  // Words the person is known by are weak parts of a password (the gateway judges with the same ones).
  const userInputs = useMemo(
    () => [user.email, user.first_name, user.last_name, user.tenant_name],
    [user.email, user.first_name, user.last_name, user.tenant_name],
  );
  const strength = usePasswordStrength(values.new_password, userInputs);
  const fields = state.status === 'failed' ? state.fields : {};
  const busy = state.status === 'busy';

  const focusFirst = (errors: ChangePasswordErrors) => {
    const first = FIELDS.find((f) => errors[f]);
    if (first) refs[first].current?.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const own = changePasswordErrors(values);
    // The gateway refuses a weak password with the same words; said here before it is sent.
    const weak = strength.status === 'ready' && strength.verdict ? passwordProblem(strength.verdict) : null;
    if (weak && !own.new_password) own.new_password = weak;
    if (Object.keys(own).length > 0) {
      setState({ status: 'failed', fields: own, message: null });
      focusFirst(own);
      return;
    }
    setState({ status: 'busy' });
    try {
      const { token } = await changePassword({
        current_password: values.current_password,
        new_password: values.new_password,
      });
      replaceSessionToken(token);
      setValues(EMPTY);
      setState({ status: 'idle' });
      notify.success(PASSWORD_CHANGED);
    } catch (error) {
      const failure = failureOf(error);
      setState(failure);
      focusFirst(failure.fields); // read-only while busy, never disabled: focusable now
    }
  };

  const field = (name: ChangePasswordField) => ({
    ref: refs[name],
    type: 'password',
    required: true,
    maxLength: 200,
    value: values[name],
    error: fields[name],
    readOnly: busy,
    onChange: (event: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: event.target.value })),
  });

  return (
    <form noValidate className="max-w-md space-y-4" onSubmit={(event) => void submit(event)}>
      {/* For password managers: the account whose password this is. */}
      <input type="text" name="username" autoComplete="username" value={user.email} readOnly hidden />
      <TextField label="Current password" autoComplete="current-password" {...field('current_password')} />
      <div>
        <TextField
          label="New password"
          autoComplete="new-password"
          // The rule stays in view; an error about this field takes its place rather than repeating it.
          hint={fields.new_password ? undefined : PASSWORD_RULE}
          {...field('new_password')}
        />
        <StrengthMeter strength={strength} />
      </div>
      <TextField label="Repeat the new password" autoComplete="new-password" {...field('repeat')} />
      {state.status === 'failed' && state.message && (
        <p role="alert" className="text-sm text-red-700">
          {state.message}
        </p>
      )}
      <Button type="submit" busy={busy}>
        Change password
      </Button>
    </form>
  );
}
