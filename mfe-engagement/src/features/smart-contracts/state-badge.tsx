import type { WatchState } from '@console/shared/contracts';
import { STATE_LABELS } from './watch-rules';

const TONES: Record<WatchState, string> = {
  catching_up: 'bg-sky-50 text-sky-800 ring-sky-600/20',
  live: 'bg-emerald-50 text-emerald-800 ring-emerald-600/20',
  error: 'bg-red-50 text-red-800 ring-red-600/20',
  paused: 'bg-amber-50 text-amber-800 ring-amber-600/20',
};

/** A watched contract's state as a badge (text, never colour alone). */
export function WatchStateBadge({ state }: { state: WatchState }) {
  return (
    <span
      data-testid="watch-state"
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${TONES[state]}`}
    >
      {STATE_LABELS[state]}
    </span>
  );
}

/** The state, and the RPC's message under it when the watcher is failing. */
export function WatchStateCell({ state, lastError }: { state: WatchState; lastError: string | null }) {
  return (
    <span className="inline-flex flex-col items-start gap-0.5">
      <WatchStateBadge state={state} />
      {state === 'error' && lastError && <span className="max-w-xs text-xs break-words text-red-700">{lastError}</span>}
    </span>
  );
}
