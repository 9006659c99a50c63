import { useCallback, useMemo, useState } from 'react';
import { NO_SELECTION, checkedOnPage, togglePage, toggleRow, type GridSelection } from './contact-selection';

/**
 * The grid's selection, owned by one filter: when `scope` (the filter's key) changes, the selection
 * is empty again. Callbacks are stable for a page so memoised rows do not re-render.
 */
export function useContactSelection(scope: string, pageIds: readonly string[]) {
  const [state, setState] = useState<{ scope: string; selection: GridSelection }>({ scope, selection: NO_SELECTION });
  const selection = state.scope === scope ? state.selection : NO_SELECTION;

  const update = useCallback(
    (change: (current: GridSelection) => GridSelection) =>
      setState((previous) => ({
        scope,
        selection: change(previous.scope === scope ? previous.selection : NO_SELECTION),
      })),
    [scope],
  );

  const onToggle = useCallback((id: string) => update((current) => toggleRow(current, id, pageIds)), [update, pageIds]);
  const onToggleAll = useCallback(
    (checked: boolean) => update((current) => togglePage(current, pageIds, checked)),
    [update, pageIds],
  );
  const selectAllMatching = useCallback(() => update(() => ({ kind: 'filter' })), [update]);
  const clear = useCallback(() => update(() => NO_SELECTION), [update]);
  const checked = useMemo(() => checkedOnPage(selection, pageIds), [selection, pageIds]);

  return { selection, checked, onToggle, onToggleAll, selectAllMatching, clear };
}
