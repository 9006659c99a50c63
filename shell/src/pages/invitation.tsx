import { useRef, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@console/shared/router';
import { AcceptInvitationBody, InvitationLookup, JoinInvitationBody, TokenResponse } from '@console/shared/contracts';
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

/** Who invites to which community until when (with `note` between), and the invited address. */
function Invited({ invitation, note }: { invitation: InvitationLookup; note?: string }) {
  return (
    <>
      <p className="text-sm text-slate-700">
        {invitation.invited_by
          ? `${invitation.invited_by} invited you to join ${invitation.tenant_name}.`
          : `You are invited to join ${invitation.tenant_name}.`}{' '}
        {note && `${note} `}The invitation expires on {formatDate(invitation.expires_at)}.
      </p>
      <TextField label="Email" type="email" autoComplete="username" value={invitation.email} readOnly />
    </>
  );
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
      <Invited invitation={invitation} />
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
        userInputs={[invitation.email, invitation.tenant_name, values.first_name, values.last_name]}
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

type JoinState = { status: 'idle' | 'busy' } | { status: 'failed'; field: string | null; message: string | null };

/**
 * Join with an account in another community (the lookup's `has_account`): that account's password,
 * POST /v1/invitations/join, then signed in as the login form does. The new account keeps the same
 * address, password and name (gateway auth/communities.ts).
 */
function JoinForm({ token, invitation }: { token: string; invitation: InvitationLookup }) {
  const [password, setPassword] = useState('');
  const [state, setState] = useState<JoinState>({ status: 'idle' });
  const passwordRef = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (state.status === 'busy') return;
    const parsed = JoinInvitationBody.safeParse({ token, password });
    if (!parsed.success) {
      setState({ status: 'failed', field: parsed.error.issues[0]?.message ?? null, message: null });
      passwordRef.current?.focus();
      return;
    }
    setState({ status: 'busy' });
    try {
      const { token: issued } = await api.post('/v1/invitations/join', TokenResponse, parsed.data);
      await signInWithToken(issued); // goes to / (a full load, as after the login form)
    } catch (error) {
      const fields = error instanceof ApiError ? error.fieldErrors() : {};
      const message = error instanceof ApiError ? error.body.message || ACCEPT_FAILED : ACCEPT_FAILED;
      setState({ status: 'failed', field: fields.password ?? null, message: fields.password ? null : message });
      passwordRef.current?.focus();
    }
  };

  return (
    <form noValidate className="space-y-4" onSubmit={(event) => void submit(event)}>
      <Invited
        invitation={invitation}
        note="You already have an account with this address: enter its password to join."
      />
      <TextField
        ref={passwordRef}
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        error={state.status === 'failed' ? (state.field ?? undefined) : undefined}
        onChange={(e) => setPassword(e.target.value)}
      />
      {state.status === 'failed' && state.message && (
        <p role="alert" className="text-sm text-red-700">
          {state.message}
        </p>
      )}
      <Button type="submit" busy={state.status === 'busy'} className="w-full">
        Join {invitation.tenant_name}
      </Button>
      <Link className="inline-block text-sm text-brand-700 underline" to="/reset">
        Forgot your password?
      </Link>
    </form>
  );
}

/**
 * /invitation/:token (bare, no session needed): the invitation looked up (POST /v1/invitations/lookup),
 * then the form to join (a new account, or with the password of the person's account elsewhere). An invalid or expired link shows the server's message and the way to sign in.
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
      {lookup.data.has_account ? (
        <JoinForm token={token} invitation={lookup.data} />
      ) : (
        <AcceptForm token={token} invitation={lookup.data} />
      )}
    </AuthCard>
  );
}
