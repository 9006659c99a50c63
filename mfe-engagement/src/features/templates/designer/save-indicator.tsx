import { Spinner } from '@console/shared/ui';
import type { SaveStatus } from './use-autosave';

/** The autosave's state, announced politely: 'Saved', 'Unsaved changes', 'Saving…', 'Not saved'. */
export function SaveIndicator({ status, onRetry }: { status: SaveStatus; onRetry: () => void }) {
  return (
    <p role="status" data-testid="save-status" data-state={status.kind} className="flex items-center gap-2 text-sm">
      {status.kind === 'saved' && (
        <span className="text-emerald-800">
          <span aria-hidden="true">✓ </span>Saved
        </span>
      )}
      {status.kind === 'pending' && <span className="text-slate-600">Unsaved changes</span>}
      {status.kind === 'saving' && (
        <span className="flex items-center gap-1 text-slate-600">
          <Spinner className="h-3 w-3" decorative />
          Saving…
        </span>
      )}
      {status.kind === 'failed' && (
        <>
          <span className="text-red-700">Not saved</span>
          <button type="button" onClick={onRetry} className="text-brand-700 underline">
            Try again
          </button>
        </>
      )}
    </p>
  );
}
