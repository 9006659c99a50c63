/**
 * The contacts grid's filters: which ones exist, which ones other screens may set through the URL,
 * and the ContactFilter they make (for "all that match" selections and the export).
 */
import { CONTACT_SOURCES, CONTACT_STATUSES, type ContactFilter } from '@console/shared/contracts';

export const CONTACT_FILTER_KEYS = ['listId', 'status', 'source', 'attribute', 'attributeValue', 'segmentId'] as const;
export type ContactFilterKey = (typeof CONTACT_FILTER_KEYS)[number];

/** Filters other screens may link in with (`/engagement/contacts?segmentId=...`). */
export const URL_FILTER_KEYS = ['listId', 'segmentId', 'status'] as const;
export type UrlFilterKey = (typeof URL_FILTER_KEYS)[number];

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

function validUrlValue(key: UrlFilterKey, value: string): boolean {
  if (key === 'status') return (CONTACT_STATUSES as readonly string[]).includes(value);
  return ID_PATTERN.test(value);
}

/** The URL filters of a query string; unknown statuses and malformed ids are dropped. */
export function filtersFromSearchParams(params: URLSearchParams): Partial<Record<UrlFilterKey, string>> {
  const out: Partial<Record<UrlFilterKey, string>> = {};
  for (const key of URL_FILTER_KEYS) {
    const value = params.get(key)?.trim() ?? '';
    if (value !== '' && validUrlValue(key, value)) out[key] = value;
  }
  return out;
}

function isStatus(value: string): value is NonNullable<ContactFilter['status']> {
  return (CONTACT_STATUSES as readonly string[]).includes(value);
}

function isSource(value: string): value is NonNullable<ContactFilter['source']> {
  return (CONTACT_SOURCES as readonly string[]).includes(value);
}

/**
 * The ContactFilter of the grid's state: the debounced search plus the known, non-empty filters.
 * `fixedListId` (a list's members grid) wins over a list filter. An attribute value without an
 * attribute is dropped.
 */
export function toContactFilter(
  searchString: string,
  filters: Readonly<Record<string, string>>,
  fixedListId?: string,
): ContactFilter {
  const out: ContactFilter = { searchString };
  const listId = fixedListId ?? filters.listId;
  if (listId) out.listId = listId;
  const status = filters.status ?? '';
  if (isStatus(status)) out.status = status;
  const source = filters.source ?? '';
  if (isSource(source)) out.source = source;
  if (filters.attribute) {
    out.attribute = filters.attribute;
    if (filters.attributeValue) out.attributeValue = filters.attributeValue;
  }
  if (filters.segmentId) out.segmentId = filters.segmentId;
  return out;
}

/** Query parameters of a filter (the export call): only the non-empty values. */
export function filterSearchParams(filter: ContactFilter): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (typeof value === 'string' && value !== '') out[key] = value;
  }
  return out;
}

/** A stable text for a filter: the selection belongs to it and clears when it changes. */
export function filterKey(filter: ContactFilter): string {
  return JSON.stringify(Object.entries(filterSearchParams(filter)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Whether any grid filter (not the search) is set. */
export function hasFilters(filters: Readonly<Record<string, string>>): boolean {
  return CONTACT_FILTER_KEYS.some((key) => (filters[key] ?? '') !== '');
}
