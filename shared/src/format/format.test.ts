import {
  formatCount,
  formatDay,
  formatDate,
  formatDateTime,
  formatDots,
  formatRelative,
  formatDateRange,
  formatMoney,
  formatPercent,
  formatPrice,
  formatUsage,
} from './index';

describe('formatMoney', () => {
  it.each([
    [0, '$0.00'],
    [50, '$50.00'],
    [112.5, '$112.50'],
    [1234.5, '$1,234.50'],
    [1382.25, '$1,382.25'],
    [10764, '$10,764.00'],
    [1234567.891, '$1,234,567.89'],
    [0.005, '$0.01'],
    [-0.001, '$0.00'],
    [-12, '-$12.00'],
    [Number.NaN, '—'],
  ])('%p → %p', (amount, text) => expect(formatMoney(amount)).toBe(text));
});

describe('formatCount', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [60000, '60,000'],
    [1250000, '1,250,000'],
    [Number.POSITIVE_INFINITY, '—'],
  ])('%p → %p', (count, text) => expect(formatCount(count)).toBe(text));
});

describe('formatPercent', () => {
  it.each([
    [0, '0%'],
    [21, '21%'],
    [8.25, '8.25%'],
    [19.6, '19.6%'],
  ])('%p → %p', (rate, text) => expect(formatPercent(rate)).toBe(text));
});

describe('formatDay', () => {
  it.each([
    ['2026-05-01', 'May 1, 2026'],
    ['2026-05-01T00:00:00.000Z', 'May 1, 2026'],
    ['2026-12-31T23:30:00.000Z', 'December 31, 2026'],
    ['2027-01-01T00:30:00+02:00', 'December 31, 2026'],
    ['not a date', 'not a date'],
  ])('%p → %p', (iso, text) => expect(formatDay(iso)).toBe(text));
});

describe('formatDay in any time zone', () => {
  const zone = process.env.TZ;
  afterEach(() => {
    process.env.TZ = zone;
  });
  it.each(['America/Los_Angeles', 'Pacific/Auckland'])('a calendar day stays that day in %p', (tz) => {
    process.env.TZ = tz;
    expect(formatDay('2026-05-01')).toBe('May 1, 2026');
  });
});

describe('formatDateRange', () => {
  it.each([
    ['2026-05-01', '2026-05-31', 'May 1, 2026 – May 31, 2026'],
    ['2026-05-01', null, 'Since May 1, 2026'],
    [null, '2026-05-31', 'Until May 31, 2026'],
    [null, null, null],
  ])('%p – %p → %p', (start, end, text) => expect(formatDateRange(start, end)).toBe(text));
});

describe('formatUsage', () => {
  it.each([
    [0, 60000, '0 of 60,000 e-mails'],
    [4200, 60000, '4,200 of 60,000 e-mails'],
    [70000, 60000, '70,000 of 60,000 e-mails'],
    [1, null, '1 e-mail'],
    [4200, null, '4,200 e-mails'],
  ])('%p of %p → %p', (used, limit, text) => expect(formatUsage(used, limit)).toBe(text));
});

describe('formatPrice: two decimals unless whole', () => {
  it.each([
    [100, '$100'],
    [95, '$95'],
    [112.5, '$112.50'],
    [230.38, '$230.38'],
    [1104, '$1,104'],
    [99.999, '$100'],
    [0.1 + 0.2, '$0.30'],
  ])('%s -> %s', (amount, text) => expect(formatPrice(amount)).toBe(text));
});

describe('grid dates, relative times and dot thousands', () => {
  it('writes a short date and a date with its time; leaves text that is not a date', () => {
    expect(formatDate('2026-03-04T12:00:00')).toBe('Mar 4, 2026');
    expect(formatDateTime('2026-03-04T14:05:00')).toBe('Mar 4, 2026, 2:05 PM');
    expect(formatDate('soon')).toBe('soon');
  });
  it('says how long ago or from now', () => {
    const now = Date.parse('2026-03-04T12:00:00Z');
    expect(formatRelative('2026-03-04T11:55:00Z', now)).toBe('5 minutes ago');
    expect(formatRelative('2026-03-03T12:00:00Z', now)).toBe('yesterday');
    expect(formatRelative('2026-03-04T14:00:00Z', now)).toBe('in 2 hours');
    expect(formatRelative('2026-03-04T12:00:10Z', now)).toBe('now');
  });
  it('writes e-mail quantities with dot thousands separators', () => {
    expect(formatDots(60000)).toBe('60.000');
    expect(formatDots(1250000)).toBe('1.250.000');
    expect(formatDots(500)).toBe('500');
  });
});
