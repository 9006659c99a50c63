import { Link, useSearchParams } from '@console/shared/router';
import { useQuery } from '@tanstack/react-query';
import { MessageResponse } from '@console/shared/contracts/core';
import { api } from '@console/shared/api';
import { AuthCard } from './auth-card';

/** /confirm-email?user_id=..&token=..: confirms the address from the e-mailed link. */
export function ConfirmEmailPage() {
  const [params] = useSearchParams();
  const user_id = params.get('user_id') ?? '';
  const token = params.get('token') ?? '';
  const complete = Boolean(user_id && token);
  const result = useQuery({
    queryKey: ['confirm-email', user_id, token],
    queryFn: () => api.post('/v1/auth/confirm-email', MessageResponse, { user_id, token }),
    enabled: complete,
    retry: false,
    staleTime: Infinity,
  });
  const failure = !complete ? 'This confirmation link is incomplete.' : result.isError ? result.error.message : null;
  return (
    <AuthCard title="Confirm your e-mail">
      {complete && result.isPending && (
        <p role="status" className="text-sm text-slate-600">
          Confirming…
        </p>
      )}
      {result.data && (
        <p role="status" className="text-sm text-slate-700">
          {result.data.message}
        </p>
      )}
      {failure && (
        <p role="alert" className="text-sm text-red-700">
          {failure}
        </p>
      )}
      <Link className="mt-6 inline-block text-sm text-brand-700 underline" to="/">
        Continue to the console
      </Link>
    </AuthCard>
  );
}
