import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from '@console/shared/router';
import { TENANT_URL_FILTERS, filtersFromSearchParams, type TenantUrlFilter } from './tenant-query';

const SEPARATOR = '\n';

/**
 * The tenants grid's filters kept in the URL, as the contacts grid keeps its own: read once as the
 * grid's initial filters, applied again when the URL changes (back, forward, a followed link), and
 * written (replacing the entry) whenever the admin changes one, so a reload or a shared link shows the
 * same tenants.
 */
export function useUrlFilters() {
  const [params, setParams] = useSearchParams();
  const fromUrl = useMemo(() => filtersFromSearchParams(params), [params]);
  const signature = TENANT_URL_FILTERS.map((key) => fromUrl[key] ?? '').join(SEPARATOR);

  const write = useCallback(
    (changes: Partial<Record<TenantUrlFilter, string>>) => {
      const next = new URLSearchParams(params);
      let changed = false;
      for (const [key, value] of Object.entries(changes)) {
        if ((next.get(key) ?? '') === value) continue;
        changed = true;
        if (value) next.set(key, value);
        else next.delete(key);
      }
      if (changed) setParams(next, { replace: true });
    },
    [params, setParams],
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
    TENANT_URL_FILTERS.forEach((key, index) => {
      if (before[index] !== now[index]) setFilter(key, now[index] ?? '');
    });
  }, [signature, setFilter]);
}

/** setFilter / clearFilters that keep the URL in step. */
export function useFilterSetters(
  write: (changes: Partial<Record<TenantUrlFilter, string>>) => void,
  setFilter: (key: string, value: string) => void,
  clearFilters: () => void,
) {
  const set = useCallback(
    (key: TenantUrlFilter, value: string) => {
      setFilter(key, value);
      write({ [key]: value });
    },
    [setFilter, write],
  );
  const setMany = useCallback(
    (changes: Partial<Record<TenantUrlFilter, string>>) => {
      for (const [key, value] of Object.entries(changes)) setFilter(key, value);
      write(changes);
    },
    [setFilter, write],
  );
  const clear = useCallback(() => {
    clearFilters();
    write(Object.fromEntries(TENANT_URL_FILTERS.map((key) => [key, ''])));
  }, [clearFilters, write]);
  return { setFilter: set, setFilters: setMany, clearFilters: clear };
}
