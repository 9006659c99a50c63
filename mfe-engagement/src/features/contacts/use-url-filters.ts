import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from '@console/shared/router';
import { URL_FILTER_KEYS, filtersFromSearchParams, isUrlFilterKey, type UrlFilterKey } from './contact-filter';

const SEPARATOR = '\n';

/**
 * The Contacts screen's link-in filters (?listId=, ?segmentId=, ?status=): read once as the grid's
 * initial filters, applied again when the URL changes (a link followed while the screen is open),
 * and, when the URL carries one, updated when the user changes or clears it, so a reload shows the
 * same view. A URL without them is never touched: each navigation re-runs the shell's route guard.
 */
export function useUrlFilters(enabled: boolean) {
  const [params, setParams] = useSearchParams();
  const fromUrl = useMemo(() => (enabled ? filtersFromSearchParams(params) : {}), [enabled, params]);
  const signature = URL_FILTER_KEYS.map((key) => fromUrl[key] ?? '').join(SEPARATOR);

  const write = useCallback(
    (changes: Partial<Record<UrlFilterKey, string>>) => {
      if (!enabled) return;
      const carried = Object.entries(changes).filter(([key, value]) => params.has(key) && params.get(key) !== value);
      if (carried.length === 0) return;
      const next = new URLSearchParams(params);
      for (const [key, value] of carried) {
        if (value) next.set(key, value);
        else next.delete(key);
      }
      setParams(next, { replace: true });
    },
    [enabled, params, setParams],
  );

  return { initialFilters: fromUrl, signature, write };
}

/** Applies URL filter changes made after mount (each changed key only) to the list state. */
export function useApplyUrlFilters(signature: string, setFilter: (key: string, value: string) => void) {
  const previous = useRef(signature);
  useEffect(() => {
    if (previous.current === signature) return;
    const before = previous.current.split(SEPARATOR);
    const now = signature.split(SEPARATOR);
    previous.current = signature;
    URL_FILTER_KEYS.forEach((key, index) => {
      if (before[index] !== now[index]) setFilter(key, now[index] ?? '');
    });
  }, [signature, setFilter]);
}

/** setFilter / clearFilters that keep the URL's link-in filters in step. */
export function useFilterSetters(
  write: (changes: Partial<Record<UrlFilterKey, string>>) => void,
  setFilter: (key: string, value: string) => void,
  clearFilters: () => void,
) {
  const set = useCallback(
    (key: string, value: string) => {
      setFilter(key, value);
      if (isUrlFilterKey(key)) write({ [key]: value });
    },
    [setFilter, write],
  );
  const clear = useCallback(() => {
    clearFilters();
    write(Object.fromEntries(URL_FILTER_KEYS.map((key) => [key, ''])));
  }, [clearFilters, write]);
  return { setFilter: set, clearFilters: clear };
}
