/**
 * How every screen writes numbers, money and dates (en-US, US dollars), so a count, an amount or a day
 * reads the same in the shell, the grids and the billing page. Pure.
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
const DAY = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
const SHORT_DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const DATE_TIME = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const RELATIVE = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });

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
export function formatDay(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : DAY.format(time);
}

/** A moment in grids: 'Mar 4, 2026' (local time); unparseable text is returned unchanged. */
export function formatDate(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : SHORT_DATE.format(time);
}

/** A moment with its time: 'Mar 4, 2026, 2:05 PM' (local time). */
export function formatDateTime(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : DATE_TIME.format(time);
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** How long ago (or from now) a moment is: 'yesterday', '5 minutes ago', 'in 2 hours', 'now'. */
export function formatRelative(iso: string, now: number = Date.now()): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  const diff = time - now;
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return RELATIVE.format(Math.round(diff / ms), unit);
  }
  return RELATIVE.format(0, 'second');
}

/** The spec's e-mail quantities (plan pricing options) with dot thousands separators: 60000 → '60.000'. */
export function formatDots(count: number): string {
  return Number.isFinite(count) ? COUNT.format(Math.round(count)).replace(/,/g, '.') : '—';
}

/** 'May 1, 2026 – May 31, 2026'; either end may be missing. */
export function formatDateRange(start: string | null, end: string | null): string | null {
  if (start && end) return `${formatDay(start)} – ${formatDay(end)}`;
  if (start) return `Since ${formatDay(start)}`;
  if (end) return `Until ${formatDay(end)}`;
  return null;
}

/** '4,200 of 60,000 e-mails' (or '4,200 e-mails' without a limit). */
export function formatUsage(used: number, limit: number | null): string {
  const unit = limit === null && used === 1 ? 'e-mail' : 'e-mails';
  return limit === null ? `${formatCount(used)} ${unit}` : `${formatCount(used)} of ${formatCount(limit)} ${unit}`;
}

/** '0x1234…abcd': an address (a wallet, a contract) by the start and the end it is recognised by. */
export function shortenAddress(address: string): string {
  if (address.length <= 12) return address;
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}

export * from './time-zones';
