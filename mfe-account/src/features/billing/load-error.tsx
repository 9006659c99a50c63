import { ApiError } from '@console/shared/api';
import { Button } from '@console/shared/ui';
import { errorText } from './api';

/** The overview could not be loaded: the server's message and, unless access was refused, Retry. */
export function BillingLoadError({
  error,
  retrying,
  onRetry,
}: {
  error: unknown;
  retrying: boolean;
  onRetry: () => void;
}) {
  const forbidden = error instanceof ApiError && error.status === 403;
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-5 text-sm text-red-800">
      <p className="font-medium">{errorText(error, 'Your billing details could not be loaded.')}</p>
      {!forbidden && (
        <Button variant="secondary" className="mt-3" busy={retrying} onClick={onRetry}>
          Retry
        </Button>
      )}
    </div>
  );
}
