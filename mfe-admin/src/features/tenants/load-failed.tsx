import { Button } from '@console/shared/ui';

/**
 * A fetch that failed (spec section 8: list and stats fetch errors are only logged, the message is
 * not shown): a plain notice and Retry.
 */
export function LoadFailed({ what, onRetry, retrying }: { what: string; onRetry: () => void; retrying: boolean }) {
  return (
    <div role="alert" className="flex flex-wrap items-center gap-3 px-4 py-3 text-sm text-red-700">
      <span>{what} could not be loaded.</span>
      <Button variant="secondary" size="sm" busy={retrying} onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}
