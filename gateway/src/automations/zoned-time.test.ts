// Waits "until a weekday at a time" and date triggers in a tenant's time zone, across daylight saving.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Weekday } from '../contracts';
import { addDays, localDay, nextWeekdayTime, zonedInstant } from './zoned-time';

describe('nextWeekdayTime', () => {
  const rows: [string, string, Weekday, string, string][] = [
    // 2026-12-01 is a Tuesday.
    ['later the same day', '2026-12-01T08:00:00Z', 'tuesday', '09:00', '2026-12-01T09:00:00.000Z'],
    ['a week on when the time has passed', '2026-12-01T10:00:00Z', 'tuesday', '09:00', '2026-12-08T09:00:00.000Z'],
    [
      'strictly after: exactly at the time is a week on',
      '2026-12-01T09:00:00Z',
      'tuesday',
      '09:00',
      '2026-12-08T09:00:00.000Z',
    ],
    ['the next Monday', '2026-12-01T10:00:00Z', 'monday', '09:30', '2026-12-07T09:30:00.000Z'],
  ];
  for (const [name, after, weekday, time, expected] of rows)
    it(`UTC: ${name}`, () =>
      assert.equal(nextWeekdayTime(new Date(after), 'UTC', weekday, time).toISOString(), expected));

  it('in New York across the end of daylight saving (1 November 2026)', () => {
    // Friday 30 October 2026, 12:00 EDT; Monday 2 November 09:00 is EST (UTC-5).
    const at = nextWeekdayTime(new Date('2026-10-30T16:00:00Z'), 'America/New_York', 'monday', '09:00');
    assert.equal(at.toISOString(), '2026-11-02T14:00:00.000Z');
  });

  it('in Tokyo the local day is ahead of UTC', () => {
    // Monday 30 November 2026 23:30 UTC is Tuesday 08:30 in Tokyo: Tuesday 09:00 is half an hour later.
    const at = nextWeekdayTime(new Date('2026-11-30T23:30:00Z'), 'Asia/Tokyo', 'tuesday', '09:00');
    assert.equal(at.toISOString(), '2026-12-01T00:00:00.000Z');
  });
});

describe('days', () => {
  it('reads the local day and shifts calendar days', () => {
    assert.equal(localDay(new Date('2026-11-30T23:30:00Z'), 'Asia/Tokyo'), '2026-12-01');
    assert.equal(addDays('2026-03-01', -1), '2026-02-28');
    assert.equal(addDays('2024-02-28', 1), '2024-02-29');
  });

  it('takes a repeated autumn time at its first occurrence', () => {
    // 1 November 2026 01:30 happens twice in New York: first in EDT (UTC-4).
    assert.equal(zonedInstant('America/New_York', 2026, 11, 1, 1, 30).toISOString(), '2026-11-01T05:30:00.000Z');
  });

  it('takes a skipped spring time one offset later', () => {
    // 8 March 2026 02:30 does not exist in New York (clocks go 02:00 -> 03:00).
    assert.equal(zonedInstant('America/New_York', 2026, 3, 8, 2, 30).toISOString(), '2026-03-08T07:30:00.000Z');
  });
});
