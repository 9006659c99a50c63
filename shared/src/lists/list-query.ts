/**
 * The list behaviour of spec sections 3, 4 and 9, as plain state and a reducer (no React): one
 * implementation every grid uses through `useListQuery`.
 */
import type { Pagination, SortOrder } from '@console/shared/contracts/core';

/** Default page size (spec section 9). */
export const DEFAULT_PER_PAGE = 10;
/** Page sizes a grid offers (spec section 9). */
export const PAGE_SIZES = [10, 25, 50, 100, 250, 500] as const;
/** Search text reaches the query this long after the last keystroke (ms). */
export const SEARCH_DEBOUNCE_MS = 1000;
/** The changing-page flag resets this long after a page change (ms). */
export const PAGE_CHANGE_RESET_MS = 100;
/** localStorage key of the saved page size. */
export const PER_PAGE_STORAGE_KEY = 'perPage';

export interface ListSort<F extends string = string> {
  field: F;
  order: SortOrder;
}

export interface ListState<F extends string = string> {
  page: number;
  perPage: number;
  sortField: F;
  sortOrder: SortOrder;
  searchString: string;
  /** Extra filters sent as query parameters; an empty value means no filter. */
  filters: Record<string, string>;
}

export type ListAction<F extends string = string> =
  | { type: 'setPage'; page: number }
  | { type: 'setPerPage'; perPage: number }
  | { type: 'sort'; field: F }
  | { type: 'setSearch'; searchString: string }
  | { type: 'setFilter'; field: string; value: string }
  | { type: 'clearFilters' };

/** A usable page size: a positive integer (the gateway caps it at 1000). */
export function isValidPerPage(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 1000;
}

/** A page size read from storage, or null when missing or invalid. */
export function parsePerPage(raw: string | null | undefined): number | null {
  if (raw === null || raw === undefined || !/^\d+$/.test(raw.trim())) return null;
  const value = Number(raw.trim());
  return isValidPerPage(value) ? value : null;
}

export function initialListState<F extends string>(options: {
  defaultSort: ListSort<F>;
  perPage?: number;
  filters?: Record<string, string>;
}): ListState<F> {
  return {
    page: 1,
    perPage: isValidPerPage(options.perPage) ? options.perPage : DEFAULT_PER_PAGE,
    sortField: options.defaultSort.field,
    sortOrder: options.defaultSort.order,
    searchString: '',
    filters: { ...options.filters },
  };
}

const flip = (order: SortOrder): SortOrder => (order === 'asc' ? 'desc' : 'asc');

/**
 * Spec section 4: a new sort field resets to page 1 and keeps the current order; the same field
 * again flips asc/desc. Page size, search and filter changes go back to page 1. An action that
 * changes nothing returns the same state object.
 */
export function listReducer<F extends string>(state: ListState<F>, action: ListAction<F>): ListState<F> {
  switch (action.type) {
    case 'setPage': {
      const page = Number.isInteger(action.page) && action.page >= 1 ? action.page : 1;
      return page === state.page ? state : { ...state, page };
    }
    case 'setPerPage': {
      if (!isValidPerPage(action.perPage)) return state;
      if (action.perPage === state.perPage) return state;
      return { ...state, perPage: action.perPage, page: 1 };
    }
    case 'sort':
      if (action.field === state.sortField) return { ...state, sortOrder: flip(state.sortOrder) };
      return { ...state, sortField: action.field, page: 1 };
    case 'setSearch':
      return action.searchString === state.searchString
        ? state
        : { ...state, searchString: action.searchString, page: 1 };
    case 'setFilter': {
      const current = state.filters[action.field] ?? '';
      if (current === action.value) return state;
      const filters = { ...state.filters };
      if (action.value === '') delete filters[action.field];
      else filters[action.field] = action.value;
      return { ...state, filters, page: 1 };
    }
    case 'clearFilters':
      return Object.keys(state.filters).length === 0 ? state : { ...state, filters: {}, page: 1 };
  }
}

/** Query parameters the gateway takes: page, perPage, sortField, sortOrder, searchString, then filters. */
export function toSearchParams(state: ListState): Record<string, string | number> {
  const params: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(state.filters)) {
    if (value !== '') params[key] = value;
  }
  // The list query's own keys always win over a filter of the same name.
  params.page = state.page;
  params.perPage = state.perPage;
  params.sortField = state.sortField;
  params.sortOrder = state.sortOrder;
  params.searchString = state.searchString;
  return params;
}

/** The grid's footer line: 'Showing x to y of z results'. */
export function showingText(pagination: Pick<Pagination, 'starting' | 'ending' | 'count'>): string {
  return `Showing ${pagination.starting} to ${pagination.ending} of ${pagination.count} results`;
}
