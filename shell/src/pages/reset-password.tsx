import { useState } from 'react';
import { Link, useParams } from '@console/shared/router';
import { MessageResponse } from '@console/shared/contracts/core';
import { ApiError, api } from '@console/shared/api';
import { Button } from '@console/shared/ui';
import { AuthCard } from './auth-card';
import { NewPasswordFields, repeatError } from './new-password-fields';

type State =
  | { status: 'idle' }
  | { status: 'busy' }
  | { status: 'done'; message: string }
  | { status: 'failed'; message: string; fields: Record<string, string> };

/** /reset/:user_id/:reset_token: choose a new password from an e-mailed link. */
export function ResetPasswordPage() {
  const { user_id = '', reset_token = '' } = useParams();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [state, setState] = useState<State>({ status: 'idle' });
  if (state.status === 'done') {
    return (
      <AuthCard title="Password changed">
        <p role="status" className="text-sm text-slate-700">
          {state.message}
        </p>
        <Link className="mt-6 inline-block text-sm text-brand-700 underline" to="/login">
          Sign in
        </Link>
      </AuthCard>
    );
  }
  const fields = state.status === 'failed' ? state.fields : {};
  return (
    <AuthCard title="Choose a new password">
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          const mismatch = repeatError(password, repeat);
          if (mismatch) {
            setState({ status: 'failed', message: mismatch, fields: { repeat: mismatch } });
            return;
          }
          setState({ status: 'busy' });
          api.post('/v1/auth/reset', MessageResponse, { user_id, reset_token, password }).then(
            ({ message }) => setState({ status: 'done', message }),
            (error: unknown) =>
              setState({
                status: 'failed',
                message: error instanceof Error ? error.message : 'Request failed',
                fields: error instanceof ApiError ? error.fieldErrors() : {},
              }),
          );
        }}
      >
        <NewPasswordFields
          labels={{ password: 'New password', repeat: 'Repeat the new password' }}
          password={password}
          repeat={repeat}
          onPassword={setPassword}
          onRepeat={setRepeat}
          errors={fields}
        />
        {state.status === 'failed' && !fields.password && !fields.repeat && (
          <p role="alert" className="text-sm text-red-700">
            {fields.reset_token ?? fields.user_id ?? state.message}{' '}
            <Link className="underline" to="/reset">
              Ask for a new link
            </Link>
          </p>
        )}
        <Button type="submit" busy={state.status === 'busy'} className="w-full">
          Change password
        </Button>
      </form>
    </AuthCard>
  );
}
