// The tenant list query's pure rules: date ranges as UTC bounds and the filters' parsing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpError } from '../errors';
import { dateBounds, parseDay, parseFilters } from './list-query';

const NOW = new Date('2026-03-15T10:30:00Z');
const iso = (d: Date | null) => d?.toISOString().slice(0, 10) ?? null;
const bounds = (dateRange: Parameters<typeof dateBounds>[0]['dateRange'], dateFrom?: string, dateTo?: string) => {
  const b = dateBounds({ dateRange, dateFrom, dateTo }, NOW);
  return [iso(b.from), iso(b.to)];
};
const is400 = (fn: () => unknown, field: string) =>
  assert.throws(fn, (e: unknown) => e instanceof HttpError && e.statusCode === 400 && field in (e.errors ?? {}));

describe('dateBounds (UTC, [from, to))', () => {
  it('gives each range its days', () => {
    assert.deepEqual(bounds('all_time'), [null, null]);
    assert.deepEqual(bounds('today'), ['2026-03-15', '2026-03-16']);
    assert.deepEqual(bounds('last_7_days'), ['2026-03-09', '2026-03-16']);
    assert.deepEqual(bounds('last_30_days'), ['2026-02-14', '2026-03-16']);
    assert.deepEqual(bounds('this_month'), ['2026-03-01', '2026-04-01']);
    assert.deepEqual(bounds('last_month'), ['2026-02-01', '2026-03-01']);
    assert.deepEqual(bounds('this_year'), ['2026-01-01', '2027-01-01']);
    assert.deepEqual(bounds('custom', '2026-01-10', '2026-01-10'), ['2026-01-10', '2026-01-11']);
  });
  it('refuses custom ranges without days, with impossible days or reversed', () => {
    is400(() => bounds('custom'), 'dateFrom');
    is400(() => bounds('custom', '2026-01-01'), 'dateTo');
    is400(() => bounds('custom', '2026-02-30', '2026-03-01'), 'dateFrom');
    is400(() => bounds('custom', '2026-03-02', '2026-03-01'), 'dateTo');
    assert.equal(parseDay('2028-02-29')?.toISOString(), '2028-02-29T00:00:00.000Z');
    assert.equal(parseDay('2026-13-01'), null);
  });
});

describe('parseFilters', () => {
  it('reads filterField/filterValue and the JSON filters (AND of fields, OR within one)', () => {
    assert.deepEqual(parseFilters({ filterField: 'plan', filterValue: 'basic' }), { plan: ['basic'] });
    assert.deepEqual(parseFilters({ filters: '{"plan":["startup","growup"],"sending_paused":true}' }), {
      plan: ['startup', 'growup'],
      sending_paused: ['true'],
    });
    assert.deepEqual(
      parseFilters({ filterField: 'plan', filterValue: 'growup', filters: '{"plan":["startup","growup"]}' }),
      {
        plan: ['growup'],
      },
    );
    assert.deepEqual(parseFilters({}), {});
  });
  it('is a 400 on bad JSON, unknown fields or values, and a field without its value', () => {
    is400(() => parseFilters({ filters: '{plan' }), 'filters');
    is400(() => parseFilters({ filters: '[1]' }), 'filters');
    is400(() => parseFilters({ filters: '{"colour":["red"]}' }), 'filters');
    is400(() => parseFilters({ filters: '{"plan":["gold"]}' }), 'filters');
    is400(() => parseFilters({ filters: '{"plan":[1]}' }), 'filters');
    is400(() => parseFilters({ filterField: 'billing_state', filterValue: 'late' }), 'filterValue');
    is400(() => parseFilters({ filterField: 'plan' }), 'filterValue');
    is400(() => parseFilters({ filterValue: 'basic' }), 'filterField');
  });
});
