import { useRef, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@console/shared/router';
import { AcceptInvitationBody, InvitationLookup, TokenResponse } from '@console/shared/contracts';
import { ApiError, api } from '@console/shared/api';
import { formatDate } from '@console/shared/format';
import { signInWithToken } from '@console/shared/session';
import { Button, TextField } from '@console/shared/ui';
import { AuthCard } from './auth-card';
import { NewPasswordFields, repeatError } from './new-password-fields';

const INVALID_LINK = 'This invitation link is not valid.';
const ACCEPT_FAILED = 'Your account could not be created. Please try again.';

type Field = 'first_name' | 'last_name' | 'password' | 'repeat';
type Errors = Partial<Record<Field, string>>;
type State =
  | { status: 'idle' }
  | { status: 'busy' }
  | { status: 'failed'; fields: Errors; message: string | null }
  /** The account exists but signing in with its token failed: the person signs in by hand. */
  | { status: 'joined' };

/** The form's own check: AcceptInvitationBody (the gateway validates with it too), then the repeat. */
function ownErrors(token: string, values: Record<Field, string>): Errors {
  const errors: Errors = {};
  const parsed = AcceptInvitationBody.safeParse({
    token,
    first_name: values.first_name,
    last_name: values.last_name,
    password: values.password,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if ((field === 'first_name' || field === 'last_name' || field === 'password') && !errors[field]) {
        errors[field] = issue.message;
      }
    }
  }
  const mismatch = errors.password ? null : repeatError(values.password, values.repeat);
  if (mismatch) errors.repeat = mismatch;
  return errors;
}

function failureOf(error: unknown): Extract<State, { status: 'failed' }> {
  if (!(error instanceof ApiError)) return { status: 'failed', fields: {}, message: ACCEPT_FAILED };
  const all = error.fieldErrors();
  const fields: Errors = {};
  for (const field of ['first_name', 'last_name', 'password'] as const) if (all[field]) fields[field] = all[field];
  const message =
    Object.keys(fields).length > 0 ? null : all.token || error.body.message || Object.values(all)[0] || ACCEPT_FAILED;
  return { status: 'failed', fields, message };
}

/** Join a community: names and a password, then POST /v1/invitations/accept and sign in as the login form does. */
function AcceptForm({ token, invitation }: { token: string; invitation: InvitationLookup }) {
  const [values, setValues] = useState<Record<Field, string>>({
    first_name: '',
    last_name: '',
    password: '',
    repeat: '',
  });
  const [state, setState] = useState<State>({ status: 'idle' });
  const firstNameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const fields = state.status === 'failed' ? state.fields : {};
  const set = (field: Field) => (value: string) => setValues((v) => ({ ...v, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (state.status === 'busy') return;
    const own = ownErrors(token, values);
    if (Object.keys(own).length > 0) {
      setState({ status: 'failed', fields: own, message: null });
      (own.first_name ? firstNameRef : passwordRef).current?.focus();
      return;
    }
    setState({ status: 'busy' });
    let issued: string;
    try {
      ({ token: issued } = await api.post('/v1/invitations/accept', TokenResponse, {
        token,
        first_name: values.first_name.trim(),
        last_name: values.last_name.trim(),
        password: values.password,
      }));
    } catch (error) {
      setState(failureOf(error));
      return;
    }
    try {
      await signInWithToken(issued); // goes to / (a full load, as after the login form)
    } catch {
      setState({ status: 'joined' });
    }
  };

  if (state.status === 'joined') {
    return (
      <p role="status" className="text-sm text-slate-700">
        Your account has been created.{' '}
        <Link className="text-brand-700 underline" to="/login">
          Sign in
        </Link>{' '}
        to continue.
      </p>
    );
  }

  return (
    <form noValidate className="space-y-4" onSubmit={(event) => void submit(event)}>
      <p className="text-sm text-slate-700">
        {invitation.invited_by
          ? `${invitation.invited_by} invited you to join ${invitation.tenant_name}.`
          : `You are invited to join ${invitation.tenant_name}.`}{' '}
        The invitation expires on {formatDate(invitation.expires_at)}.
      </p>
      <TextField label="Email" type="email" autoComplete="username" value={invitation.email} readOnly />
      <TextField
        ref={firstNameRef}
        label="First name"
        autoComplete="given-name"
        required
        value={values.first_name}
        error={fields.first_name}
        onChange={(e) => set('first_name')(e.target.value)}
      />
      <TextField
        label="Last name"
        autoComplete="family-name"
        value={values.last_name}
        error={fields.last_name}
        onChange={(e) => set('last_name')(e.target.value)}
      />
      <NewPasswordFields
        labels={{ password: 'Password', repeat: 'Repeat the password' }}
        password={values.password}
        repeat={values.repeat}
        onPassword={set('password')}
        onRepeat={set('repeat')}
        errors={fields}
        passwordRef={passwordRef}
      />
      {state.status === 'failed' && state.message && (
        <p role="alert" className="text-sm text-red-700">
          {state.message}{' '}
          <Link className="underline" to="/login">
            Go to sign in
          </Link>
        </p>
      )}
      <Button type="submit" busy={state.status === 'busy'} className="w-full">
        Join {invitation.tenant_name}
      </Button>
    </form>
  );
}

/**
 * /invitation/:token (bare, no session needed): the invitation looked up (POST /v1/invitations/lookup),
 * then the form to join. An invalid or expired link shows the server's message and the way to sign in.
 */
export function InvitationPage() {
  const { token = '' } = useParams();
  const lookup = useQuery({
    queryKey: ['invitation', token],
    queryFn: () => api.post('/v1/invitations/lookup', InvitationLookup, { token }),
    retry: false,
    staleTime: Infinity,
  });
  if (lookup.isPending) {
    return (
      <AuthCard title="Your invitation">
        <p role="status" className="text-sm text-slate-600">
          Checking your invitation…
        </p>
      </AuthCard>
    );
  }
  if (lookup.isError) {
    return (
      <AuthCard title="This invitation cannot be used">
        <p role="alert" className="text-sm text-red-700">
          {lookup.error instanceof ApiError && lookup.error.body.message ? lookup.error.body.message : INVALID_LINK}
        </p>
        <Link className="mt-6 inline-block text-sm text-brand-700 underline" to="/login">
          Go to sign in
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={`Join ${lookup.data.tenant_name}`}>
      <AcceptForm token={token} invitation={lookup.data} />
    </AuthCard>
  );
}
