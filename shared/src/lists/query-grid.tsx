import { useEffect, type ReactNode } from 'react';
import type { Pagination } from '@console/shared/contracts/core';
import type { ListQuery } from './use-list-query';
import { DataGrid, preloadVirtualRows, VIRTUALIZE_ABOVE, type DataGridProps } from './data-grid';
import { ListPagination } from './pagination';
import { TextField } from '@console/shared/ui';

/** A list response: one page of records and its pagination. */
export interface QueryGridPage<T> {
  records: readonly T[];
  pagination: Pagination;
}

export interface QueryGridProps<T, F extends string> extends Omit<DataGridProps<T, F>, 'rows' | 'sort' | 'onSort'> {
  /** The grid's list behaviour (useListQuery): its sort, page and page size drive the grid and the footer. */
  list: ListQuery<F>;
  /** The page loaded for `list.query`; undefined until the first answer (the footer waits for it). */
  page: QueryGridPage<T> | undefined;
  /** A search box above the table, wired to the list's debounced search (labelled for screen readers). */
  search?: { label: string; placeholder: string };
  /** Above the table, inside the panel, after the search box: filters, actions. */
  toolbar?: ReactNode;
  /** The last fetch failed: shown as an alert above the rows (already escaped text, never HTML). */
  error?: string | null;
}

const NO_ROWS: readonly never[] = [];

/**
 * A server-paged grid in its panel: optional search box and toolbar, the fetch error, the sortable table and the
 * footer ('Showing x to y of z results', page size, Previous/Next), all wired to one useListQuery.
 * Every list screen uses it, so they sort, page and report errors the same way.
 */
export function QueryGrid<T, F extends string>({ list, page, search, toolbar, error, ...grid }: QueryGridProps<T, F>) {
  // A page size that gets a windowed body: load its chunk while the page is being fetched.
  const big = list.state.perPage > VIRTUALIZE_ABOVE;
  useEffect(() => {
    if (big) void preloadVirtualRows();
  }, [big]);
  return (
    <div className="rounded-panel border border-slate-200 bg-white">
      {(search || toolbar) && (
        <div className="flex flex-wrap items-end gap-3 border-b border-slate-200 p-4">
          {search && (
            <TextField
              type="search"
              label={search.label}
              hideLabel
              placeholder={search.placeholder}
              maxLength={200}
              value={list.searchInput}
              onChange={(event) => list.setSearchInput(event.target.value)}
              containerClassName="w-full max-w-sm"
            />
          )}
          {toolbar}
        </div>
      )}
      {error && (
        <p role="alert" className="px-4 pt-3 text-sm text-red-700">
          {error}
        </p>
      )}
      <DataGrid<T, F>
        {...grid}
        rows={page?.records ?? NO_ROWS}
        sort={{ field: list.state.sortField, order: list.state.sortOrder }}
        onSort={list.sort}
      />
      {page && (
        <ListPagination
          className="border-t border-slate-200 px-4"
          pagination={page.pagination}
          onPage={list.setPage}
          perPage={list.state.perPage}
          onPerPage={list.setPerPage}
          disabled={list.changingPage}
        />
      )}
    </div>
  );
}
