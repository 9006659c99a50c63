import type { ReactNode } from 'react';
import type { SortOrder } from '../contracts/common';
import { Spinner } from './spinner';

export interface DataGridColumn<T, F extends string = string> {
  key: string;
  header: ReactNode;
  /** Set for a sortable column: the sort field sent to the gateway. */
  sortField?: F;
  render: (row: T) => ReactNode;
  /** Extra classes for this column's cells. */
  className?: string;
}

export interface DataGridProps<T, F extends string = string> {
  columns: readonly DataGridColumn<T, F>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  sort?: { field: F; order: SortOrder };
  onSort?: (field: F) => void;
  /** Shown in one row when there are no rows, e.g. 'No widgets found.'. */
  empty: ReactNode;
  /** While true the table is aria-busy; with no rows yet, a loading row replaces the empty text. */
  loading?: boolean;
  /** Accessible name of the table. */
  label?: string;
  className?: string;
}

const ARIA_SORT = { asc: 'ascending', desc: 'descending' } as const;

function SortIcon({ order }: { order: SortOrder | null }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 20 20"
      fill="currentColor"
      className={`h-4 w-4 ${order === null ? 'text-slate-300' : 'text-slate-700'}`}
    >
      {order !== 'desc' && <path d="M10 4l4 5H6z" />}
      {order !== 'asc' && <path d="M10 16l-4-5h8z" />}
    </svg>
  );
}

/** A semantic table with sortable headers, an empty row and a loading state. No data fetching. */
export function DataGrid<T, F extends string = string>({
  columns,
  rows,
  rowKey,
  sort,
  onSort,
  empty,
  loading = false,
  label,
  className,
}: DataGridProps<T, F>) {
  return (
    <div className={['overflow-x-auto', className].filter(Boolean).join(' ')}>
      <table aria-label={label} aria-busy={loading || undefined} className="min-w-full divide-y divide-slate-200">
        <thead className="bg-slate-50">
          <tr>
            {columns.map((column) => {
              const { sortField } = column;
              const active = sortField !== undefined && sort?.field === sortField ? sort.order : null;
              return (
                <th
                  key={column.key}
                  scope="col"
                  aria-sort={sortField === undefined ? undefined : active === null ? 'none' : ARIA_SORT[active]}
                  className="px-4 py-3 text-left text-sm font-semibold text-slate-900"
                >
                  {sortField !== undefined && onSort ? (
                    <button
                      type="button"
                      onClick={() => onSort(sortField)}
                      className="inline-flex items-center gap-1 rounded-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
                    >
                      {column.header}
                      <SortIcon order={active} />
                    </button>
                  ) : (
                    column.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className={`divide-y divide-slate-200 bg-white ${loading ? 'opacity-60' : ''}`}>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="px-4 py-6 text-center text-sm text-slate-500">
                {loading ? <Spinner className="mx-auto h-5 w-5" /> : empty}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((column) => (
                  <td
                    key={column.key}
                    className={['px-4 py-3 text-sm text-slate-700', column.className].filter(Boolean).join(' ')}
                  >
                    {column.render(row)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
