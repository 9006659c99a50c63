/**
 * The tenants grid's filters (spec section 3's tenant list query) and the query they make. Pure: the
 * grid keeps its filters as flat strings (in the list state and the URL); the gateway takes plan and
 * billing state as one `filters` JSON, and the custom range as dateFrom/dateTo.
 */
import { TENANT_BILLING_STATES, TENANT_DATE_RANGES, type TenantDateRange } from '@console/shared/contracts';
import { PLAN_KEYS } from '@console/shared/access';

/** The filters the grid offers, kept in the URL (`/tenants?plan=startup&dateRange=last_30_days`). */
export const TENANT_URL_FILTERS = ['plan', 'billing_state', 'dateRange', 'dateFrom', 'dateTo', 'listId'] as const;
export type TenantUrlFilter = (typeof TENANT_URL_FILTERS)[number];

/** The query sent to GET /v1/tenants and GET /v1/tenants/stats. */
export type TenantApiQuery = Record<string, string | number>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

const within = (values: readonly string[], value: string) => values.includes(value);

/** Whether `value` may stand for `key` (a link may carry anything: unknown values are dropped). */
export function validFilterValue(key: TenantUrlFilter, value: string): boolean {
  switch (key) {
    case 'plan':
      return within(PLAN_KEYS, value);
    case 'billing_state':
      return within(TENANT_BILLING_STATES, value);
    case 'dateRange':
      return within(TENANT_DATE_RANGES, value);
    case 'dateFrom':
    case 'dateTo':
      return DAY.test(value);
    case 'listId':
      return ID.test(value);
  }
}

/** The grid's filters in a URL's query string; malformed values are dropped. */
export function filtersFromSearchParams(params: URLSearchParams): Partial<Record<TenantUrlFilter, string>> {
  const out: Partial<Record<TenantUrlFilter, string>> = {};
  for (const key of TENANT_URL_FILTERS) {
    const value = params.get(key)?.trim() ?? '';
    if (value !== '' && validFilterValue(key, value)) out[key] = value;
  }
  return out;
}

function isDateRange(value: string | undefined): value is TenantDateRange {
  return value !== undefined && within(TENANT_DATE_RANGES, value);
}

/**
 * The gateway's query for the list state's parameters (page, perPage, sort, searchString and the
 * flat filters): plan and billing state become `filters` (`{"plan":["startup"]}`); a custom range is
 * sent only with both days, earlier first (until then the grid shows all time); dateFrom/dateTo go
 * only with `custom`.
 */
export function toTenantQuery(listQuery: Readonly<Record<string, string | number>>): TenantApiQuery {
  const out: TenantApiQuery = {};
  const filters: Record<string, string[]> = {};
  let range: string | undefined;
  let from: string | undefined;
  let to: string | undefined;
  for (const [key, value] of Object.entries(listQuery)) {
    if (key === 'plan' || key === 'billing_state') {
      if (value !== '') filters[key] = [String(value)];
    } else if (key === 'dateRange') range = String(value);
    else if (key === 'dateFrom') from = String(value);
    else if (key === 'dateTo') to = String(value);
    else if (value !== '') out[key] = value;
  }
  if (Object.keys(filters).length > 0) out.filters = JSON.stringify(filters);
  if (isDateRange(range) && range !== 'all_time') {
    if (range !== 'custom') out.dateRange = range;
    else if (from && to && DAY.test(from) && DAY.test(to)) {
      out.dateRange = 'custom';
      [out.dateFrom, out.dateTo] = from <= to ? [from, to] : [to, from];
    }
  }
  return out;
}

/** Whether any filter is set (the toolbar offers "Clear filters"). */
export function hasTenantFilters(filters: Readonly<Record<string, string>>): boolean {
  return TENANT_URL_FILTERS.some((key) => (filters[key] ?? '') !== '');
}
