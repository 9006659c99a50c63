/**
 * Billing formatting for the console (en-US, US dollars): the shell's plan dialogs and the billing
 * page use these, so an amount or a date reads the same everywhere. Pure.
 */

const MONEY = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const WHOLE = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const COUNT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const PERCENT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });
const DATE = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** '$1,234.50'; negative amounts (credits) as '-$12.00'. */
export function formatMoney(amount: number): string {
  if (!Number.isFinite(amount)) return '—';
  // Avoid '-$0.00' for tiny negative rounding leftovers.
  const cents = Math.round(amount * 100);
  return MONEY.format(cents === 0 ? 0 : cents / 100);
}

/** A card price: two decimals unless whole ($95, $112.50). */
export function formatPrice(amount: number): string {
  const cents = Math.round(amount * 100);
  return cents % 100 === 0 ? WHOLE.format(cents / 100) : formatMoney(cents / 100);
}

/** '60,000'. */
export function formatCount(count: number): string {
  return Number.isFinite(count) ? COUNT.format(count) : '—';
}

/** A tax rate in percent (21 → '21%', 8.875 → '8.875%'). */
export function formatPercent(rate: number): string {
  return Number.isFinite(rate) ? `${PERCENT.format(rate)}%` : '—';
}

/**
 * 'March 5, 2026'. Billing dates are calendar days: read in UTC, so '2026-03-05' and
 * '2026-03-05T00:00:00Z' show the same day in every time zone (as the shell's plan dialogs do).
 * Unparseable text is returned unchanged.
 */
export function formatDate(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : DATE.format(time);
}

/** 'May 1, 2026 – May 31, 2026'; either end may be missing. */
export function formatDateRange(start: string | null, end: string | null): string | null {
  if (start && end) return `${formatDate(start)} – ${formatDate(end)}`;
  if (start) return `Since ${formatDate(start)}`;
  if (end) return `Until ${formatDate(end)}`;
  return null;
}

/** '4,200 of 60,000 e-mails' (or '4,200 e-mails' without a limit). */
export function formatUsage(used: number, limit: number | null): string {
  const unit = limit === null && used === 1 ? 'e-mail' : 'e-mails';
  return limit === null ? `${formatCount(used)} ${unit}` : `${formatCount(used)} of ${formatCount(limit)} ${unit}`;
}
