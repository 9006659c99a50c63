/**
 * The money math of plan changes, pure and in integer cents (billing-math.test.ts).
 *
 * - Movement: 'upgrade' when the new price per MONTH is higher than the current one, else
 *   'downgrade' (so the same plan on another period is an upgrade or a downgrade by its monthly rate).
 * - An upgrade takes effect now. Same period length: it charges the difference for the rest of the
 *   current period (new × remaining − old × remaining, remaining = remaining ms / period ms) and the
 *   period stays. Another period length (monthly → yearly): a new period starts now and it charges the
 *   new price less the unused credit of the old one (old × remaining).
 * - A downgrade is scheduled for the end of the current period: nothing is due now; the summary shows
 *   what the new price costs per period from then on.
 * - Tax = round(subtotal × rate / 100), the rate in percent with at most two decimals.
 */
import { type BillingPeriod, PERIOD_MONTHS } from '../contracts';

export interface PriceTerms {
  /** Cents for the whole period. */
  amountCents: number;
  period: BillingPeriod;
}

export interface CurrentTerms extends PriceTerms {
  periodStart: Date;
  periodEnd: Date;
}

export type Movement = 'upgrade' | 'downgrade';

export interface ChangeQuote {
  movement: Movement;
  subtotalCents: number;
  taxCents: number;
  totalCents: number;
  dueNowCents: number;
  /** When the change takes effect (a downgrade: the current period's end); null: now. */
  effectiveDate: Date | null;
  /** The subscription's period after an upgrade (unchanged unless the period length changed). */
  newPeriod: { start: Date; end: Date } | null;
}

/** round(a × b / c) in exact integer arithmetic, halves away from zero (c > 0). */
export function mulDivRound(a: number, b: number, c: number): number {
  if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b) || !Number.isSafeInteger(c) || c <= 0) {
    throw new RangeError('mulDivRound takes safe integers and a positive divisor');
  }
  const n = BigInt(a) * BigInt(b);
  const d = BigInt(c);
  const sign = n < 0n ? -1n : 1n;
  const abs = n < 0n ? -n : n;
  return Number(sign * ((2n * abs + d) / (2n * d)));
}

/** A percent rate (21, 8.875 is rounded to 8.88) in hundredths of a percent. */
export function rateBasisPoints(ratePercent: number): number {
  if (!Number.isFinite(ratePercent) || ratePercent < 0) throw new RangeError('tax rate must be a percent ≥ 0');
  return Math.round(ratePercent * 100);
}

export function taxCents(subtotalCents: number, ratePercent: number): number {
  return mulDivRound(subtotalCents, rateBasisPoints(ratePercent), 10_000);
}

/** `months` calendar months after `date` (UTC); the day is clamped to the month's end (Jan 31 + 1 = Feb 28/29). */
export function addMonths(date: Date, months: number): Date {
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const d = new Date(date.getTime());
  d.setUTCFullYear(y, m, Math.min(date.getUTCDate(), lastDay));
  return d;
}

export function periodEnd(start: Date, period: BillingPeriod): Date {
  return addMonths(start, PERIOD_MONTHS[period]);
}

/** Compares the prices per month (a × months(b) vs b × months(a): no rounding). */
export function movementOf(current: PriceTerms, next: PriceTerms): Movement {
  const nextRate = next.amountCents * PERIOD_MONTHS[current.period];
  const currentRate = current.amountCents * PERIOD_MONTHS[next.period];
  return nextRate > currentRate ? 'upgrade' : 'downgrade';
}

/** The unused share of `cents` for the rest of the period at `now` (0 after the end, all of it before the start). */
export function remainingShare(cents: number, current: Pick<CurrentTerms, 'periodStart' | 'periodEnd'>, now: Date) {
  const total = current.periodEnd.getTime() - current.periodStart.getTime();
  if (total <= 0) return 0;
  const left = Math.min(Math.max(current.periodEnd.getTime() - now.getTime(), 0), total);
  return mulDivRound(cents, left, total);
}

/**
 * The quote for moving from `current` (null: no subscription, which starts one now at full price) to
 * `next` at `now` with a tax rate in percent.
 */
export function quoteChange(
  current: CurrentTerms | null,
  next: PriceTerms,
  now: Date,
  taxRatePercent: number,
): ChangeQuote {
  const charge = (subtotalCents: number, newPeriod: ChangeQuote['newPeriod']): ChangeQuote => {
    const subtotal = Math.max(0, subtotalCents);
    const tax = taxCents(subtotal, taxRatePercent);
    return {
      movement: 'upgrade',
      subtotalCents: subtotal,
      taxCents: tax,
      totalCents: subtotal + tax,
      dueNowCents: subtotal + tax,
      effectiveDate: null,
      newPeriod,
    };
  };
  const freshPeriod = { start: now, end: periodEnd(now, next.period) };

  if (!current) return charge(next.amountCents, freshPeriod);

  if (movementOf(current, next) === 'downgrade') {
    const tax = taxCents(next.amountCents, taxRatePercent);
    return {
      movement: 'downgrade',
      subtotalCents: next.amountCents,
      taxCents: tax,
      totalCents: next.amountCents + tax,
      dueNowCents: 0,
      effectiveDate: current.periodEnd,
      newPeriod: null,
    };
  }

  if (PERIOD_MONTHS[current.period] === PERIOD_MONTHS[next.period]) {
    const difference =
      remainingShare(next.amountCents, current, now) - remainingShare(current.amountCents, current, now);
    return charge(difference, { start: current.periodStart, end: current.periodEnd });
  }
  const credit = remainingShare(current.amountCents, current, now);
  return charge(next.amountCents - credit, freshPeriod);
}

/** Cents as dollars on the wire (two decimals at most). */
export function dollars(cents: number): number {
  return Math.round(cents) / 100;
}
