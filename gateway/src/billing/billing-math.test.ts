import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  addMonths,
  type CurrentTerms,
  movementOf,
  mulDivRound,
  type PriceTerms,
  quoteChange,
  rateBasisPoints,
  taxCents,
} from './proration';

const DAY = 24 * 60 * 60 * 1000;
const jan1 = new Date('2026-01-01T00:00:00.000Z');
const feb1 = new Date('2026-02-01T00:00:00.000Z'); // 31 days
const nextJan1 = new Date('2027-01-01T00:00:00.000Z'); // 365 days
const at = (d: Date, days: number) => new Date(d.getTime() + days * DAY);

const startup1Monthly: PriceTerms = { amountCents: 10_000, period: 'monthly' };
const startup1Yearly: PriceTerms = { amountCents: 110_400, period: 'yearly' };
const basic1Monthly: PriceTerms = { amountCents: 5_000, period: 'monthly' };
const growup1Monthly: PriceTerms = { amountCents: 24_250, period: 'monthly' };
const growup5Monthly: PriceTerms = { amountCents: 54_750, period: 'monthly' };

const monthlyJan = (p: PriceTerms): CurrentTerms => ({ ...p, periodStart: jan1, periodEnd: feb1 });
const yearly2026 = (p: PriceTerms): CurrentTerms => ({ ...p, periodStart: jan1, periodEnd: nextJan1 });

interface Case {
  name: string;
  current: CurrentTerms | null;
  next: PriceTerms;
  now: Date;
  rate: number;
  movement: 'upgrade' | 'downgrade';
  subtotal: number;
  tax: number;
  total: number;
  dueNow: number;
  effectiveDate: Date | null;
  newPeriod: { start: Date; end: Date } | null;
}

const cases: Case[] = [
  {
    // 21 of 31 days left: round(24250 × 21/31) − round(10000 × 21/31) = 16427 − 6774.
    name: 'upgrade mid-period, same period length: the prorated difference, the period stays',
    current: monthlyJan(startup1Monthly),
    next: growup1Monthly,
    now: at(jan1, 10),
    rate: 21,
    movement: 'upgrade',
    subtotal: 9_653,
    tax: 2_027,
    total: 11_680,
    dueNow: 11_680,
    effectiveDate: null,
    newPeriod: { start: jan1, end: feb1 },
  },
  {
    name: 'downgrade: scheduled at the period end, nothing due now, the new price per period shown',
    current: monthlyJan(startup1Monthly),
    next: basic1Monthly,
    now: at(jan1, 10),
    rate: 21,
    movement: 'downgrade',
    subtotal: 5_000,
    tax: 1_050,
    total: 6_050,
    dueNow: 0,
    effectiveDate: feb1,
    newPeriod: null,
  },
  {
    // 1104 a year is 92 a month, less than 100: a downgrade, although the amount is higher.
    name: 'same plan, monthly to yearly: cheaper per month, so a scheduled downgrade',
    current: monthlyJan(startup1Monthly),
    next: startup1Yearly,
    now: at(jan1, 3),
    rate: 0,
    movement: 'downgrade',
    subtotal: 110_400,
    tax: 0,
    total: 110_400,
    dueNow: 0,
    effectiveDate: feb1,
    newPeriod: null,
  },
  {
    // 10 of 365 days left: credit round(110400 × 10/365) = 3025; a new monthly period starts now.
    name: 'yearly to monthly upgrade: new period now, new price less the unused credit',
    current: yearly2026(startup1Yearly),
    next: growup5Monthly,
    now: at(nextJan1, -10),
    rate: 0,
    movement: 'upgrade',
    subtotal: 51_725,
    tax: 0,
    total: 51_725,
    dueNow: 51_725,
    effectiveDate: null,
    newPeriod: { start: at(nextJan1, -10), end: new Date('2027-01-22T00:00:00.000Z') },
  },
  {
    // Credit round(5000 × 21/31) = 3387; 107013 + 21 % (22472.73 → 22473).
    name: 'monthly to yearly upgrade: new yearly period now, credit of the old month',
    current: monthlyJan(basic1Monthly),
    next: startup1Yearly,
    now: at(jan1, 10),
    rate: 21,
    movement: 'upgrade',
    subtotal: 107_013,
    tax: 22_473,
    total: 129_486,
    dueNow: 129_486,
    effectiveDate: null,
    newPeriod: { start: at(jan1, 10), end: new Date('2027-01-11T00:00:00.000Z') },
  },
  {
    // 100 a month (monthly) is more than 92 (yearly): an upgrade; the unused year (292 days, 88320)
    // exceeds the new month's price, and nothing is paid back: 0 due (no credit balance kept).
    name: 'same plan, yearly to monthly: an upgrade by monthly rate; a credit larger than the price gives 0',
    current: yearly2026(startup1Yearly),
    next: startup1Monthly,
    now: at(jan1, 73),
    rate: 21,
    movement: 'upgrade',
    subtotal: 0,
    tax: 0,
    total: 0,
    dueNow: 0,
    effectiveDate: null,
    newPeriod: { start: at(jan1, 73), end: new Date('2026-04-15T00:00:00.000Z') },
  },
  {
    name: 'no subscription yet: the full price, a period from now',
    current: null,
    next: growup1Monthly,
    now: at(jan1, 30),
    rate: 21,
    movement: 'upgrade',
    subtotal: 24_250,
    tax: 5_093, // 5092.5 rounds up
    total: 29_343,
    dueNow: 29_343,
    effectiveDate: null,
    newPeriod: { start: at(jan1, 30), end: new Date('2026-02-28T00:00:00.000Z') },
  },
  {
    name: 'upgrade at the very start of the period: the whole difference',
    current: monthlyJan(startup1Monthly),
    next: growup1Monthly,
    now: jan1,
    rate: 0,
    movement: 'upgrade',
    subtotal: 14_250,
    tax: 0,
    total: 14_250,
    dueNow: 14_250,
    effectiveDate: null,
    newPeriod: { start: jan1, end: feb1 },
  },
];

describe('quoteChange', () => {
  for (const c of cases) {
    it(c.name, () => {
      const q = quoteChange(c.current, c.next, c.now, c.rate);
      assert.deepEqual(q, {
        movement: c.movement,
        subtotalCents: c.subtotal,
        taxCents: c.tax,
        totalCents: c.total,
        dueNowCents: c.dueNow,
        effectiveDate: c.effectiveDate,
        newPeriod: c.newPeriod,
      });
    });
  }
});

describe('movementOf (per-month price)', () => {
  const table: [PriceTerms, PriceTerms, 'upgrade' | 'downgrade'][] = [
    [startup1Monthly, growup1Monthly, 'upgrade'],
    [growup1Monthly, startup1Monthly, 'downgrade'],
    [startup1Monthly, startup1Yearly, 'downgrade'],
    [startup1Yearly, startup1Monthly, 'upgrade'],
    // The same price per month is not an upgrade.
    [{ amountCents: 6_000, period: 'semiAnnual' }, { amountCents: 1_000, period: 'monthly' }, 'downgrade'],
    [{ amountCents: 6_000, period: 'semiAnnual' }, { amountCents: 1_001, period: 'monthly' }, 'upgrade'],
  ];
  for (const [from, to, expected] of table) {
    it(`${from.amountCents}/${from.period} → ${to.amountCents}/${to.period}: ${expected}`, () => {
      assert.equal(movementOf(from, to), expected);
    });
  }
});

describe('rounding in integer cents', () => {
  const table: [a: number, b: number, c: number, expected: number][] = [
    [1, 1, 2, 1], // 0.5 → 1 (halves away from zero)
    [3, 1, 2, 2], // 1.5 → 2
    [5, 1, 4, 1], // 1.25 → 1
    [7, 1, 4, 2], // 1.75 → 2
    [-3, 1, 2, -2],
    [0, 5, 7, 0],
    // Beyond 2^53 in between: a year in ms times a large amount stays exact.
    [10_000_000, 31_536_000_000, 31_536_000_000, 10_000_000],
    [999_999, 31_535_999_999, 31_536_000_000, 999_999],
  ];
  for (const [a, b, c, expected] of table) {
    it(`round(${a} × ${b} / ${c}) = ${expected}`, () => assert.equal(mulDivRound(a, b, c), expected));
  }

  const taxes: [subtotal: number, rate: number, expected: number][] = [
    [250, 21, 53], // 52.5 → 53
    [249, 21, 52], // 52.29
    [10_000, 8.875, 888], // the rate is kept to hundredths of a percent: 8.88 %
    [9_653, 21, 2_027],
    [0, 21, 0],
    [12_345, 0, 0],
    [100, 100, 100],
  ];
  for (const [subtotal, rate, expected] of taxes) {
    it(`tax of ${subtotal} cents at ${rate} % = ${expected}`, () => assert.equal(taxCents(subtotal, rate), expected));
  }

  it('refuses non-integers and negative rates', () => {
    assert.throws(() => mulDivRound(1.5, 1, 1), RangeError);
    assert.throws(() => mulDivRound(1, 1, 0), RangeError);
    assert.throws(() => rateBasisPoints(-1), RangeError);
  });
});

describe('addMonths (UTC, day clamped to the month end)', () => {
  const table: [string, number, string][] = [
    ['2026-01-31T10:00:00.000Z', 1, '2026-02-28T10:00:00.000Z'],
    ['2028-01-31T10:00:00.000Z', 1, '2028-02-29T10:00:00.000Z'],
    ['2026-12-15T00:00:00.000Z', 1, '2027-01-15T00:00:00.000Z'],
    ['2026-08-31T00:00:00.000Z', 6, '2027-02-28T00:00:00.000Z'],
    ['2028-02-29T00:00:00.000Z', 12, '2029-02-28T00:00:00.000Z'],
    ['2026-03-10T12:34:56.789Z', 12, '2027-03-10T12:34:56.789Z'],
  ];
  for (const [from, months, to] of table) {
    it(`${from} + ${months} → ${to}`, () => assert.equal(addMonths(new Date(from), months).toISOString(), to));
  }
});
