import {
  DEFAULT_PER_PAGE,
  PAGE_CHANGE_RESET_MS,
  PAGE_SIZES,
  PER_PAGE_STORAGE_KEY,
  SEARCH_DEBOUNCE_MS,
  initialListState,
  listReducer,
  parsePerPage,
  showingText,
  toSearchParams,
  type ListAction,
  type ListState,
} from './list-query';

const base: ListState = {
  page: 3,
  perPage: 25,
  sortField: 'created_at',
  sortOrder: 'desc',
  searchString: '',
  filters: {},
};

describe('list constants (spec section 9)', () => {
  it('match the spec', () => {
    expect(DEFAULT_PER_PAGE).toBe(10);
    expect(PAGE_SIZES).toEqual([10, 25, 50, 100, 250, 500]);
    expect(SEARCH_DEBOUNCE_MS).toBe(1000);
    expect(PAGE_CHANGE_RESET_MS).toBe(100);
    expect(PER_PAGE_STORAGE_KEY).toBe('perPage');
  });
});

describe('initialListState', () => {
  it('starts on page 1 with the default sort, an empty search and perPage 10', () => {
    expect(initialListState({ defaultSort: { field: 'count', order: 'asc' } })).toEqual({
      page: 1,
      perPage: 10,
      sortField: 'count',
      sortOrder: 'asc',
      searchString: '',
      filters: {},
    });
  });
  it('takes a valid perPage and ignores an invalid one', () => {
    expect(initialListState({ defaultSort: { field: 'a', order: 'desc' }, perPage: 50 }).perPage).toBe(50);
    expect(initialListState({ defaultSort: { field: 'a', order: 'desc' }, perPage: 0 }).perPage).toBe(10);
    expect(initialListState({ defaultSort: { field: 'a', order: 'desc' }, perPage: 2.5 }).perPage).toBe(10);
  });
});

describe('listReducer (spec section 4)', () => {
  const cases: Array<[string, ListState, ListAction, Partial<ListState>]> = [
    [
      'a new sort field goes to page 1 and keeps desc',
      base,
      { type: 'sort', field: 'url' },
      { sortField: 'url', sortOrder: 'desc', page: 1 },
    ],
    [
      'a new sort field goes to page 1 and keeps asc',
      { ...base, sortOrder: 'asc' },
      { type: 'sort', field: 'url' },
      { sortField: 'url', sortOrder: 'asc', page: 1 },
    ],
    [
      'the same field flips desc to asc',
      base,
      { type: 'sort', field: 'created_at' },
      { sortField: 'created_at', sortOrder: 'asc', page: 3 },
    ],
    [
      'the same field flips asc to desc',
      { ...base, sortOrder: 'asc' },
      { type: 'sort', field: 'created_at' },
      { sortField: 'created_at', sortOrder: 'desc' },
    ],
    ['setPage changes only the page', base, { type: 'setPage', page: 4 }, { page: 4, perPage: 25, sortOrder: 'desc' }],
    ['setPage ignores an invalid page (goes to 1)', base, { type: 'setPage', page: 0 }, { page: 1 }],
    ['setPerPage goes to page 1', base, { type: 'setPerPage', perPage: 50 }, { perPage: 50, page: 1 }],
    ['setPerPage ignores an invalid size', base, { type: 'setPerPage', perPage: -5 }, { perPage: 25, page: 3 }],
    ['setSearch goes to page 1', base, { type: 'setSearch', searchString: 'acme' }, { searchString: 'acme', page: 1 }],
    [
      'the same search keeps the page',
      { ...base, searchString: 'x' },
      { type: 'setSearch', searchString: 'x' },
      { page: 3 },
    ],
    [
      'setFilter goes to page 1',
      base,
      { type: 'setFilter', field: 'status', value: 'subscribed' },
      { filters: { status: 'subscribed' }, page: 1 },
    ],
    [
      'an empty filter value removes the filter',
      { ...base, filters: { status: 'bounced', listId: 'l1' } },
      { type: 'setFilter', field: 'status', value: '' },
      { filters: { listId: 'l1' }, page: 1 },
    ],
    [
      'clearFilters goes to page 1',
      { ...base, filters: { status: 'bounced' } },
      { type: 'clearFilters' },
      { filters: {}, page: 1 },
    ],
    ['clearFilters with no filters keeps the page', base, { type: 'clearFilters' }, { page: 3 }],
  ];

  it.each(cases)('%s', (_name, state, action, expected) => {
    const snapshot = JSON.parse(JSON.stringify(state)) as ListState;
    expect(listReducer(state, action)).toMatchObject(expected);
    expect(state).toEqual(snapshot); // the input is not mutated
  });

  it('returns the same object when nothing changes', () => {
    expect(listReducer(base, { type: 'setPage', page: 3 })).toBe(base);
    expect(listReducer(base, { type: 'setPerPage', perPage: 25 })).toBe(base);
    expect(listReducer(base, { type: 'setSearch', searchString: '' })).toBe(base);
    expect(listReducer(base, { type: 'setFilter', field: 'status', value: '' })).toBe(base);
  });
});

describe('parsePerPage', () => {
  it.each([
    ['25', 25],
    [' 50 ', 50],
    [null, null],
    ['', null],
    ['abc', null],
    ['0', null],
    ['-10', null],
    ['2.5', null],
    ['1e2', null],
    ['100000', null],
  ])('%p -> %p', (raw, expected) => {
    expect(parsePerPage(raw)).toBe(expected);
  });
});

describe('toSearchParams', () => {
  it('sends the list query and the non-empty filters', () => {
    expect(
      toSearchParams({ ...base, searchString: 'acme', filters: { status: 'subscribed', listId: '', page: '99' } }),
    ).toEqual({
      page: 3,
      perPage: 25,
      sortField: 'created_at',
      sortOrder: 'desc',
      searchString: 'acme',
      status: 'subscribed',
    });
  });
});

describe('showingText', () => {
  it.each([
    [{ starting: 1, ending: 10, count: 42 }, 'Showing 1 to 10 of 42 results'],
    [{ starting: 41, ending: 42, count: 42 }, 'Showing 41 to 42 of 42 results'],
    [{ starting: 0, ending: 0, count: 0 }, 'Showing 0 to 0 of 0 results'],
  ])('%p', (pagination, text) => {
    expect(showingText(pagination)).toBe(text);
  });
});
