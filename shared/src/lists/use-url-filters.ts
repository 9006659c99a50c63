import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from '@console/shared/router';

const SEPARATOR = '\n';

export interface UrlFiltersOptions<K extends string> {
  /** The filters the URL may carry, in a fixed order. */
  keys: readonly K[];
  /** The valid filters of a URL (invalid values left out). */
  parse: (params: URLSearchParams) => Partial<Record<K, string>>;
  /** false: the URL is neither read nor written (default true). */
  enabled?: boolean;
  /**
   * 'all': every change of a filter is written to the URL (a reload or a shared link shows the same rows);
   * 'carried': only filters the URL already carries are kept in step (link-in filters: a URL without them
   * is never touched).
   */
  write: 'all' | 'carried';
}

export interface UrlFilters<K extends string> {
  /** The URL's filters when the grid mounts: its initial filters. */
  initialFilters: Partial<Record<K, string>>;
  keys: readonly K[];
  /** The URL's filters as one string, to see what changed. */
  signature: string;
  write: (changes: Partial<Record<K, string>>) => void;
}

/**
 * A grid's filters kept in the URL (the list behaviour of spec section 8 with filters in the address):
 * read once as the grid's initial filters, applied again when the URL changes (back, forward, a followed
 * link; see {@link useUrlFilterBinding}), and written, replacing the history entry, when the user changes one.
 */
export function useUrlFilters<K extends string>(options: UrlFiltersOptions<K>): UrlFilters<K> {
  const { keys, parse, enabled = true, write: mode } = options;
  const [params, setParams] = useSearchParams();
  const initialFilters = useMemo<Partial<Record<K, string>>>(
    () => (enabled ? parse(params) : {}),
    [enabled, params, parse],
  );
  const signature = keys.map((key) => initialFilters[key] ?? '').join(SEPARATOR);

  const write = useCallback(
    (changes: Partial<Record<K, string>>) => {
      if (!enabled) return;
      const next = new URLSearchParams(params);
      let changed = false;
      for (const [key, value = ''] of Object.entries(changes) as [K, string | undefined][]) {
        if ((next.get(key) ?? '') === value || (mode === 'carried' && !params.has(key))) continue;
        changed = true;
        if (value) next.set(key, value);
        else next.delete(key);
      }
      if (changed) setParams(next, { replace: true });
    },
    [enabled, mode, params, setParams],
  );

  return { initialFilters, keys, signature, write };
}

interface FilterableList {
  setFilter: (key: string, value: string) => void;
  clearFilters: () => void;
}

/**
 * Binds a grid's list state to its URL filters: URL changes made after mount reach the list (each changed
 * key only), and the setters returned change the list and keep the URL in step.
 */
export function useUrlFilterBinding<K extends string>(url: UrlFilters<K>, list: FilterableList) {
  const { keys, signature, write } = url;
  const { setFilter, clearFilters } = list;
  const previous = useRef(signature);
  useEffect(() => {
    if (previous.current === signature) return;
    const before = previous.current.split(SEPARATOR);
    const now = signature.split(SEPARATOR);
    previous.current = signature;
    keys.forEach((key, index) => {
      if (before[index] !== now[index]) setFilter(key, now[index] ?? '');
    });
  }, [keys, signature, setFilter]);

  const isKey = useCallback((key: string): key is K => (keys as readonly string[]).includes(key), [keys]);
  const set = useCallback(
    (key: string, value: string) => {
      setFilter(key, value);
      if (isKey(key)) write({ [key]: value } as Partial<Record<K, string>>);
    },
    [isKey, setFilter, write],
  );
  const setMany = useCallback(
    (changes: Partial<Record<K, string>>) => {
      for (const [key, value = ''] of Object.entries(changes) as [K, string | undefined][]) setFilter(key, value);
      write(changes);
    },
    [setFilter, write],
  );
  const clear = useCallback(() => {
    clearFilters();
    write(Object.fromEntries(keys.map((key) => [key, ''])) as Partial<Record<K, string>>);
  }, [clearFilters, keys, write]);
  return { setFilter: set, setFilters: setMany, clearFilters: clear };
}
