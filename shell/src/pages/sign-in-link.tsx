import { useState } from 'react';
import { Link, useParams } from '@console/shared/router';
import { TokenResponse } from '@console/shared/contracts/core';
import { ApiError, api } from '@console/shared/api';
import { signInWithToken } from '@console/shared/session';
import { Button } from '@console/shared/ui';
import { AuthCard } from './auth-card';

export const SIGN_IN_LINK_FAILED = 'This sign-in link could not be used. Please sign in again.';

type State = { status: 'idle' } | { status: 'busy' } | { status: 'failed'; message: string };

/**
 * /sign-in/:user_id/:token: the link e-mailed while an account's guessing limit is reached
 * (docs/auth.md). The link is used only when the person presses the button, so a mail scanner
 * opening the page does not spend it; then the session starts as after the login form.
 */
export function SignInLinkPage() {
  const { user_id = '', token = '' } = useParams();
  const [state, setState] = useState<State>({ status: 'idle' });
  const submit = async () => {
    if (state.status === 'busy') return;
    setState({ status: 'busy' });
    try {
      const answer = await api.post('/v1/auth/sign-in-link', TokenResponse, { user_id, token });
      await signInWithToken(answer.token); // goes to / (a full load, as after the login form)
    } catch (error) {
      const message =
        error instanceof ApiError
          ? (error.fieldErrors().token ?? error.body.message ?? SIGN_IN_LINK_FAILED)
          : SIGN_IN_LINK_FAILED;
      setState({ status: 'failed', message });
    }
  };
  return (
    <AuthCard title="Sign in with your link">
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <p className="text-sm text-slate-700">You are signing in with the link we e-mailed you. The link works once.</p>
        {state.status === 'failed' && (
          <p role="alert" className="text-sm text-red-700">
            {state.message}{' '}
            <Link className="underline" to="/login">
              Sign in
            </Link>
          </p>
        )}
        <Button type="submit" busy={state.status === 'busy'} className="w-full">
          Sign in
        </Button>
      </form>
    </AuthCard>
  );
}
