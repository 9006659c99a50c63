import { filtersFromSearchParams, toTenantQuery } from './tenant-query';

const base = { page: 1, perPage: 10, sortField: 'created_at', sortOrder: 'desc', searchString: '' };

describe('toTenantQuery', () => {
  it.each([
    ['no filters', {}, {}],
    ['one plan', { plan: 'startup' }, { filters: '{"plan":["startup"]}' }],
    [
      'plan and billing state together',
      { plan: 'growup', billing_state: 'past_due' },
      { filters: '{"plan":["growup"],"billing_state":["past_due"]}' },
    ],
    ['a preset range', { dateRange: 'last_30_days' }, { dateRange: 'last_30_days' }],
    ['all time is the default: not sent', { dateRange: 'all_time' }, {}],
    ['a custom range without its days waits', { dateRange: 'custom', dateFrom: '2026-01-01' }, {}],
    [
      'a custom range with both days',
      { dateRange: 'custom', dateFrom: '2026-01-01', dateTo: '2026-01-31' },
      { dateRange: 'custom', dateFrom: '2026-01-01', dateTo: '2026-01-31' },
    ],
    [
      'a custom range given backwards',
      { dateRange: 'custom', dateFrom: '2026-02-01', dateTo: '2026-01-01' },
      { dateRange: 'custom', dateFrom: '2026-01-01', dateTo: '2026-02-01' },
    ],
    [
      'days without custom are dropped',
      { dateRange: 'today', dateFrom: '2026-01-01', dateTo: '2026-01-02' },
      {
        dateRange: 'today',
      },
    ],
    ['a list', { listId: 'l1' }, { listId: 'l1' }],
  ])('%s', (_name, filters, expected) => {
    const { searchString: _unused, ...rest } = base;
    expect(toTenantQuery({ ...base, ...filters })).toEqual({ ...rest, ...expected });
  });

  it('keeps a search', () => {
    expect(toTenantQuery({ ...base, searchString: 'acme' }).searchString).toBe('acme');
  });
});

describe('filtersFromSearchParams', () => {
  it('keeps known values and drops the rest', () => {
    const params = new URLSearchParams(
      'plan=startup&billing_state=nope&dateRange=custom&dateFrom=2026-01-01&dateTo=2026-13&listId=l-1&x=1',
    );
    expect(filtersFromSearchParams(params)).toEqual({
      plan: 'startup',
      dateRange: 'custom',
      dateFrom: '2026-01-01',
      listId: 'l-1',
    });
  });
});
