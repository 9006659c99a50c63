import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import {
  DEFAULT_PER_PAGE,
  PAGE_CHANGE_RESET_MS,
  PER_PAGE_STORAGE_KEY,
  SEARCH_DEBOUNCE_MS,
  initialListState,
  isValidPerPage,
  listReducer,
  parsePerPage,
  toSearchParams,
  type ListSort,
  type ListState,
} from './list-query';

/** Where the page size is kept; localStorage unless a test or caller passes another. */
export type PerPageStorage = Pick<Storage, 'getItem' | 'setItem'>;

export interface UseListQueryOptions<F extends string> {
  /** Not used to infer F: pass the sort fields explicitly (`useListQuery<'url' | 'count'>`) to narrow `sort`. */
  defaultSort: ListSort<NoInfer<F>>;
  /** Defaults to window.localStorage; null keeps the page size in memory only. */
  storage?: PerPageStorage | null;
  /** Filters to start with. */
  initialFilters?: Record<string, string>;
}

export interface ListQuery<F extends string = string> {
  /** The list state; its searchString is the debounced one. */
  state: ListState<F>;
  /** Query parameters to fetch with (and to key the query on): the debounced state as the gateway takes it. */
  query: Record<string, string | number>;
  /** What the search box shows: updates at once. */
  searchInput: string;
  setSearchInput: (value: string) => void;
  setPage: (page: number) => void;
  setPerPage: (perPage: number) => void;
  sort: (field: F) => void;
  setFilter: (field: string, value: string) => void;
  clearFilters: () => void;
  /** True right after a page change; resets after PAGE_CHANGE_RESET_MS. */
  changingPage: boolean;
}

function defaultStorage(): PerPageStorage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null; // storage blocked (privacy settings): keep the size in memory
  }
}

function readPerPage(storage: PerPageStorage | null): number {
  try {
    return parsePerPage(storage?.getItem(PER_PAGE_STORAGE_KEY)) ?? DEFAULT_PER_PAGE;
  } catch {
    return DEFAULT_PER_PAGE;
  }
}

function writePerPage(storage: PerPageStorage | null, perPage: number): void {
  try {
    storage?.setItem(PER_PAGE_STORAGE_KEY, String(perPage));
  } catch {
    // quota or blocked storage: the size still applies for this page
  }
}

/**
 * The spec's list behaviour for one grid: page, page size (saved as `perPage`), sort, filters and a
 * search debounced by SEARCH_DEBOUNCE_MS. Fetch with `query`; a change to it is a reload.
 */
export function useListQuery<F extends string = string>(options: UseListQueryOptions<F>): ListQuery<F> {
  const storage = options.storage === undefined ? defaultStorage() : options.storage;
  const [state, dispatch] = useReducer(listReducer<F>, undefined, () =>
    initialListState({
      defaultSort: options.defaultSort,
      perPage: readPerPage(storage),
      filters: options.initialFilters,
    }),
  );
  const [searchInput, setSearchInput] = useState('');
  const [changingPage, setChangingPage] = useState(false);
  const pageTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    const timer = setTimeout(() => dispatch({ type: 'setSearch', searchString: searchInput }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchInput]);

  useEffect(() => () => clearTimeout(pageTimer.current), []);

  const currentPage = state.page;
  const setPage = useCallback(
    (page: number) => {
      if (page === currentPage) return;
      dispatch({ type: 'setPage', page });
      setChangingPage(true);
      clearTimeout(pageTimer.current);
      pageTimer.current = setTimeout(() => setChangingPage(false), PAGE_CHANGE_RESET_MS);
    },
    [currentPage],
  );

  const setPerPage = useCallback(
    (perPage: number) => {
      if (!isValidPerPage(perPage)) return;
      writePerPage(storage, perPage);
      dispatch({ type: 'setPerPage', perPage });
    },
    [storage],
  );

  const sort = useCallback((field: F) => dispatch({ type: 'sort', field }), []);
  const setFilter = useCallback((field: string, value: string) => dispatch({ type: 'setFilter', field, value }), []);
  const clearFilters = useCallback(() => dispatch({ type: 'clearFilters' }), []);
  const query = useMemo(() => toSearchParams(state), [state]);

  return {
    state,
    query,
    searchInput,
    setSearchInput,
    setPage,
    setPerPage,
    sort,
    setFilter,
    clearFilters,
    changingPage,
  };
}
