import { useState } from 'react';
import { Link } from '@console/shared/router';
import { MessageResponse } from '@console/shared/contracts/core';
import { ApiError, api } from '@console/shared/api';
import { Button, TextField } from '@console/shared/ui';
import { AuthCard } from './auth-card';

type State =
  | { status: 'idle' }
  | { status: 'busy' }
  | { status: 'sent'; message: string }
  | { status: 'failed'; message: string; field?: string };

/** /reset: ask for a reset link. The answer never says whether the address has an account. */
export function ResetRequestPage() {
  const [email, setEmail] = useState('');
  const [state, setState] = useState<State>({ status: 'idle' });
  if (state.status === 'sent') {
    return (
      <AuthCard title="Check your inbox">
        <p role="status" className="text-sm text-slate-700">
          {state.message}
        </p>
        <Link className="mt-6 inline-block text-sm text-brand-700 underline" to="/login">
          Back to sign in
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Reset your password">
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          setState({ status: 'busy' });
          api.post('/v1/auth/reset-request', MessageResponse, { email }).then(
            ({ message }) => setState({ status: 'sent', message }),
            (error: unknown) =>
              setState({
                status: 'failed',
                message: error instanceof Error ? error.message : 'Request failed',
                field: error instanceof ApiError ? error.fieldErrors().email : undefined,
              }),
          );
        }}
      >
        <p className="text-sm text-slate-600">
          Enter your e-mail address and we will send you a link to choose a new password.
        </p>
        <TextField
          label="Email"
          type="email"
          required
          autoComplete="username"
          maxLength={254}
          value={email}
          error={state.status === 'failed' ? state.field : undefined}
          onChange={(e) => setEmail(e.target.value)}
        />
        {state.status === 'failed' && !state.field && (
          <p role="alert" className="text-sm text-red-700">
            {state.message}
          </p>
        )}
        <Button type="submit" busy={state.status === 'busy'} className="w-full">
          Send reset link
        </Button>
        <p className="text-center text-sm">
          <Link className="text-brand-700 underline" to="/login">
            Back to sign in
          </Link>
        </p>
      </form>
    </AuthCard>
  );
}
