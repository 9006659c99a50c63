/**
 * The rules of the spec's tenant list query (sections 3 and 7) that need no database: a date range
 * on `created_at` as half-open UTC bounds, and the filters (`filterField`/`filterValue` and the JSON
 * `filters`) as one validated set per field. Bad input is a 400 that names the parameter.
 */
import {
  PLAN_KEYS,
  TENANT_BILLING_STATES,
  TENANT_FILTER_FIELDS,
  type TenantFilterField,
  type TenantListQuery,
} from '../contracts';
import { badRequest, INVALID_INPUT } from '../errors';

const DAY_MS = 86_400_000;

/** `[from, to)` in UTC; null ends are open (all_time). */
export interface DateBounds {
  from: Date | null;
  to: Date | null;
}

function startOfDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** A YYYY-MM-DD day as UTC midnight, or null when it is no calendar day (2026-02-30). */
export function parseDay(value: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d ? date : null;
}

/**
 * The bounds of a date range at `now` (UTC): today; the last 7 or 30 days including today; this and
 * last calendar month; this calendar year; custom from `dateFrom` to `dateTo`, both days included.
 */
export function dateBounds(q: Pick<TenantListQuery, 'dateRange' | 'dateFrom' | 'dateTo'>, now: Date): DateBounds {
  const today = startOfDay(now);
  const tomorrow = new Date(today.getTime() + DAY_MS);
  const y = now.getUTCFullYear();
  const mo = now.getUTCMonth();
  switch (q.dateRange) {
    case 'all_time':
      return { from: null, to: null };
    case 'today':
      return { from: today, to: tomorrow };
    case 'last_7_days':
      return { from: new Date(today.getTime() - 6 * DAY_MS), to: tomorrow };
    case 'last_30_days':
      return { from: new Date(today.getTime() - 29 * DAY_MS), to: tomorrow };
    case 'this_month':
      return { from: new Date(Date.UTC(y, mo, 1)), to: new Date(Date.UTC(y, mo + 1, 1)) };
    case 'last_month':
      return { from: new Date(Date.UTC(y, mo - 1, 1)), to: new Date(Date.UTC(y, mo, 1)) };
    case 'this_year':
      return { from: new Date(Date.UTC(y, 0, 1)), to: new Date(Date.UTC(y + 1, 0, 1)) };
    case 'custom': {
      const errors: Record<string, string[]> = {};
      const from = q.dateFrom ? parseDay(q.dateFrom) : null;
      const to = q.dateTo ? parseDay(q.dateTo) : null;
      if (!from) errors.dateFrom = [q.dateFrom ? 'Use a date as YYYY-MM-DD.' : 'Choose the first day.'];
      if (!to) errors.dateTo = [q.dateTo ? 'Use a date as YYYY-MM-DD.' : 'Choose the last day.'];
      if (from && to && from > to) errors.dateTo = ['The last day cannot be before the first day.'];
      if (!from || !to || Object.keys(errors).length > 0) throw badRequest(INVALID_INPUT, errors);
      return { from, to: new Date(to.getTime() + DAY_MS) };
    }
  }
}

/** Accepted values per filter field. */
const FILTER_VALUES: Record<TenantFilterField, readonly string[]> = {
  plan: PLAN_KEYS,
  billing_state: TENANT_BILLING_STATES,
  sending_paused: ['true', 'false'],
};

/** Values to match per field (AND of fields, OR of the values of one field). */
export type TenantFilters = Partial<Record<TenantFilterField, string[]>>;

function isFilterField(key: string): key is TenantFilterField {
  return (TENANT_FILTER_FIELDS as readonly string[]).includes(key);
}

function checkValue(field: TenantFilterField, value: string, param: string): string {
  if (!FILTER_VALUES[field].includes(value)) {
    throw badRequest(INVALID_INPUT, { [param]: [`Unknown ${field} "${value}".`] });
  }
  return value;
}

/**
 * The filters of a query: `filterField` with `filterValue`, and `filters` as a JSON object of field →
 * value or array of values (booleans allowed for sending_paused). Both given: both apply (AND).
 */
export function parseFilters(q: Pick<TenantListQuery, 'filterField' | 'filterValue' | 'filters'>): TenantFilters {
  const out: TenantFilters = {};
  const add = (field: TenantFilterField, values: string[]) => {
    const known = out[field];
    // The same field twice (filterField and filters) must match both: keep the common values.
    out[field] = known ? known.filter((v) => values.includes(v)) : [...new Set(values)];
  };
  if (q.filterField !== undefined || q.filterValue !== undefined) {
    if (q.filterField === undefined) throw badRequest(INVALID_INPUT, { filterField: ['Choose a field to filter on.'] });
    if (q.filterValue === undefined || q.filterValue === '') {
      throw badRequest(INVALID_INPUT, { filterValue: ['Choose a value to filter on.'] });
    }
    add(q.filterField, [checkValue(q.filterField, q.filterValue, 'filterValue')]);
  }
  if (q.filters !== undefined && q.filters.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(q.filters);
    } catch {
      throw badRequest(INVALID_INPUT, { filters: ['Send the filters as a JSON object.'] });
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw badRequest(INVALID_INPUT, { filters: ['Send the filters as a JSON object.'] });
    }
    for (const [key, raw] of Object.entries(parsed)) {
      if (!isFilterField(key)) throw badRequest(INVALID_INPUT, { filters: [`Unknown filter "${key}".`] });
      const list: unknown[] = Array.isArray(raw) ? raw : [raw];
      const values = list.map((v) => {
        if (typeof v === 'boolean') v = String(v);
        if (typeof v !== 'string') throw badRequest(INVALID_INPUT, { filters: [`Unknown ${key} value.`] });
        return checkValue(key, v, 'filters');
      });
      add(key, values);
    }
  }
  return out;
}
