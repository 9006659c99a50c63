import type { Pagination } from '../contracts';

export interface PageWindow {
  /** Rows to skip for this page. */
  offset: number;
  limit: number;
}

/** Rows to fetch for a 1-based page. */
export function pageWindow(page: number, perPage: number): PageWindow {
  return { offset: (page - 1) * perPage, limit: perPage };
}

/**
 * Pagination of spec section 3 for a 1-based page: `starting`/`ending` are 1-based row numbers of
 * the rows shown (0/0 when none), `previous`/`next` page numbers or null. A page past the end shows
 * no rows and points back to the last page.
 */
export function paginate(page: number, perPage: number, count: number): Pagination {
  const { offset } = pageWindow(page, perPage);
  const lastPage = Math.max(1, Math.ceil(count / perPage));
  const starting = offset < count ? offset + 1 : 0;
  const ending = starting === 0 ? 0 : Math.min(offset + perPage, count);
  return {
    starting,
    ending,
    count,
    previous: page > 1 ? Math.min(page - 1, lastPage) : null,
    next: page < lastPage ? page + 1 : null,
  };
}

/** Escape LIKE wildcards so a search string matches literally. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
