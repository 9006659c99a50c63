import { act, renderHook } from '@testing-library/react';
import { PAGE_CHANGE_RESET_MS, PER_PAGE_STORAGE_KEY, SEARCH_DEBOUNCE_MS } from './list-query';
import { useListQuery, type PerPageStorage } from './use-list-query';

function memoryStorage(initial: Record<string, string> = {}): PerPageStorage & { data: Record<string, string> } {
  const data = { ...initial };
  return {
    data,
    getItem: (key) => data[key] ?? null,
    setItem: (key, value) => {
      data[key] = value;
    },
  };
}

const defaultSort = { field: 'created_at', order: 'desc' } as const;

beforeEach(() => {
  jest.useFakeTimers();
  window.localStorage.clear();
});
afterEach(() => {
  jest.useRealTimers();
});

describe('useListQuery: perPage in local storage', () => {
  it('defaults to 10 when nothing is stored', () => {
    const { result } = renderHook(() => useListQuery({ defaultSort, storage: memoryStorage() }));
    expect(result.current.state.perPage).toBe(10);
    expect(result.current.query).toEqual({
      page: 1,
      perPage: 10,
      sortField: 'created_at',
      sortOrder: 'desc',
      searchString: '',
    });
  });

  it('uses the stored value', () => {
    const { result } = renderHook(() => useListQuery({ defaultSort, storage: memoryStorage({ perPage: '50' }) }));
    expect(result.current.state.perPage).toBe(50);
    expect(result.current.query.perPage).toBe(50);
  });

  it.each(['abc', '0', '-1', '2.5', ''])('ignores the invalid stored value %p', (stored) => {
    const { result } = renderHook(() => useListQuery({ defaultSort, storage: memoryStorage({ perPage: stored }) }));
    expect(result.current.state.perPage).toBe(10);
  });

  it('writes a change under "perPage" and goes back to page 1', () => {
    const storage = memoryStorage();
    const { result } = renderHook(() => useListQuery({ defaultSort, storage }));
    act(() => result.current.setPage(3));
    act(() => result.current.setPerPage(100));
    expect(storage.data[PER_PAGE_STORAGE_KEY]).toBe('100');
    expect(result.current.state).toMatchObject({ perPage: 100, page: 1 });
  });

  it('uses window.localStorage by default', () => {
    window.localStorage.setItem('perPage', '25');
    const { result } = renderHook(() => useListQuery({ defaultSort }));
    expect(result.current.state.perPage).toBe(25);
    act(() => result.current.setPerPage(250));
    expect(window.localStorage.getItem('perPage')).toBe('250');
  });

  it('still works when storage throws', () => {
    const storage: PerPageStorage = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('blocked');
      },
    };
    const { result } = renderHook(() => useListQuery({ defaultSort, storage }));
    expect(result.current.state.perPage).toBe(10);
    act(() => result.current.setPerPage(25));
    expect(result.current.state.perPage).toBe(25);
  });
});

describe('useListQuery: search debounce', () => {
  it('updates the input at once and the query only after 1000 ms, on page 1', () => {
    const { result } = renderHook(() => useListQuery({ defaultSort, storage: null }));
    act(() => result.current.setPage(4));
    act(() => result.current.setSearchInput('acme'));
    expect(result.current.searchInput).toBe('acme');
    const before = result.current.query;
    expect(before.searchString).toBe('');

    act(() => jest.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1));
    expect(result.current.query).toBe(before);
    expect(result.current.state.page).toBe(4);

    act(() => jest.advanceTimersByTime(1));
    expect(result.current.query).toMatchObject({ searchString: 'acme', page: 1 });
  });

  it('restarts the wait on every keystroke and sends only the last text', () => {
    const { result } = renderHook(() => useListQuery({ defaultSort, storage: null }));
    act(() => result.current.setSearchInput('a'));
    act(() => jest.advanceTimersByTime(600));
    act(() => result.current.setSearchInput('ac'));
    act(() => jest.advanceTimersByTime(600));
    expect(result.current.query.searchString).toBe('');
    act(() => jest.advanceTimersByTime(400));
    expect(result.current.query.searchString).toBe('ac');
  });
});

describe('useListQuery: changingPage', () => {
  it('is true right after a page change and false after 100 ms', () => {
    const { result } = renderHook(() => useListQuery({ defaultSort, storage: null }));
    expect(result.current.changingPage).toBe(false);
    act(() => result.current.setPage(2));
    expect(result.current.changingPage).toBe(true);
    expect(result.current.query.page).toBe(2);
    act(() => jest.advanceTimersByTime(PAGE_CHANGE_RESET_MS - 1));
    expect(result.current.changingPage).toBe(true);
    act(() => jest.advanceTimersByTime(1));
    expect(result.current.changingPage).toBe(false);
  });

  it('does not flag a "change" to the current page', () => {
    const { result } = renderHook(() => useListQuery({ defaultSort, storage: null }));
    act(() => result.current.setPage(1));
    expect(result.current.changingPage).toBe(false);
  });
});

describe('useListQuery: sort and filters', () => {
  it('a new field goes to page 1 keeping the order; the same field flips it', () => {
    const { result } = renderHook(() => useListQuery({ defaultSort, storage: null }));
    act(() => result.current.setPage(3));
    act(() => result.current.sort('url'));
    expect(result.current.query).toMatchObject({ sortField: 'url', sortOrder: 'desc', page: 1 });
    act(() => result.current.sort('url'));
    expect(result.current.query).toMatchObject({ sortField: 'url', sortOrder: 'asc' });
  });

  it('filters go into the query and reset to page 1', () => {
    const { result } = renderHook(() => useListQuery({ defaultSort, storage: null }));
    act(() => result.current.setPage(2));
    act(() => result.current.setFilter('status', 'bounced'));
    expect(result.current.query).toMatchObject({ status: 'bounced', page: 1 });
    act(() => result.current.setPage(2));
    act(() => result.current.clearFilters());
    expect(result.current.query.status).toBeUndefined();
    expect(result.current.query.page).toBe(1);
  });
});

describe('useListQuery: typed sort fields', () => {
  it('narrows sort() to the given fields', () => {
    const { result } = renderHook(() =>
      useListQuery<'created_at' | 'url'>({ defaultSort: { field: 'created_at', order: 'asc' }, storage: null }),
    );
    // @ts-expect-error 'name' is not one of the sort fields
    const bad: Parameters<typeof result.current.sort>[0] = 'name';
    expect(bad).toBe('name');
    act(() => result.current.sort('url'));
    expect(result.current.state.sortField).toBe('url');
    expect(result.current.state.sortOrder).toBe('asc');
  });
});
