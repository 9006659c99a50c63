import { memo, useEffect, useRef, type ReactNode } from 'react';
import type { SortOrder } from '@console/shared/contracts/core';
import { Spinner } from '@console/shared/ui';

export interface DataGridColumn<T, F extends string = string> {
  key: string;
  header: ReactNode;
  /** Set for a sortable column: the sort field sent to the gateway. */
  sortField?: F;
  render: (row: T) => ReactNode;
  /** Extra classes for this column's cells. */
  className?: string;
}

/**
 * Row selection: a labelled checkbox column. Keys are `rowKey` values. Keep `onToggle`, `onToggleAll`
 * and `rowLabel` stable (useCallback): rows are memoised and re-render only when their own row or
 * checked state changes.
 */
export interface DataGridSelection<T> {
  /** Keys of the checked rows (on this page). */
  selected: ReadonlySet<string>;
  onToggle: (key: string) => void;
  /** The header checkbox: true checks every row of the page, false unchecks them. */
  onToggleAll: (checked: boolean) => void;
  /** Accessible name of a row's checkbox (default 'Select row'). */
  rowLabel?: (row: T) => string;
  /** Accessible name of the header checkbox (default 'Select all rows on this page'). */
  allLabel?: string;
}

export interface DataGridProps<T, F extends string = string> {
  /** Keep this array stable (useMemo) so rows are not re-rendered on every parent render. */
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
  /** Optional row selection (a first checkbox column). */
  selection?: DataGridSelection<T>;
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

const CELL = 'px-4 py-3 text-sm text-slate-700';
const CHECKBOX =
  'h-4 w-4 rounded border-slate-300 text-brand-600 accent-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600';

/**
 * What a body row needs of a column. `render` is declared as a method so any DataGridColumn<T> fits
 * (the row handed to it is always one of the grid's own rows): one non-generic memoised row component.
 */
interface RowColumn {
  key: string;
  className?: string;
  render(row: unknown): ReactNode;
}

interface GridRowProps {
  row: unknown;
  rowId: string;
  columns: readonly RowColumn[];
  /** Undefined without selection. */
  checked: boolean | undefined;
  checkLabel: string | undefined;
  onToggle: ((key: string) => void) | undefined;
}

/** One body row; skipped on re-render unless its row, columns or checked state changed. */
const GridRow = memo(function GridRow({ row, rowId, columns, checked, checkLabel, onToggle }: GridRowProps) {
  return (
    <tr className={checked ? 'bg-brand-50' : undefined}>
      {checked !== undefined && (
        <td className="w-10 px-4 py-3">
          <input
            type="checkbox"
            className={CHECKBOX}
            checked={checked}
            aria-label={checkLabel}
            onChange={() => onToggle?.(rowId)}
          />
        </td>
      )}
      {columns.map((column) => (
        <td key={column.key} className={column.className ? `${CELL} ${column.className}` : CELL}>
          {column.render(row)}
        </td>
      ))}
    </tr>
  );
});

function HeaderCheckbox({
  checked,
  indeterminate,
  label,
  disabled,
  onChange,
}: {
  checked: boolean;
  indeterminate: boolean;
  label: string;
  disabled: boolean;
  onChange: (checked: boolean) => void;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = indeterminate;
  }, [indeterminate]);
  return (
    <input
      ref={ref}
      type="checkbox"
      className={CHECKBOX}
      checked={checked}
      disabled={disabled}
      aria-label={label}
      aria-checked={indeterminate ? 'mixed' : checked}
      onChange={(event) => onChange(event.target.checked)}
    />
  );
}

/**
 * A semantic table with sortable headers, an empty row, a loading state and optional row selection.
 * No data fetching. Body rows are memoised (a page of 500 rows re-renders only what changed).
 */
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
  selection,
}: DataGridProps<T, F>) {
  const keys = rows.map(rowKey);
  const selectedOnPage = selection ? keys.filter((key) => selection.selected.has(key)).length : 0;
  const allChecked = keys.length > 0 && selectedOnPage === keys.length;
  const columnCount = columns.length + (selection ? 1 : 0);
  return (
    <div className={['overflow-x-auto', className].filter(Boolean).join(' ')}>
      <table aria-label={label} aria-busy={loading || undefined} className="min-w-full divide-y divide-slate-200">
        <thead className="bg-slate-50">
          <tr>
            {selection && (
              <th scope="col" className="w-10 px-4 py-3 text-left">
                <HeaderCheckbox
                  checked={allChecked}
                  indeterminate={selectedOnPage > 0 && !allChecked}
                  disabled={keys.length === 0}
                  label={selection.allLabel ?? 'Select all rows on this page'}
                  onChange={selection.onToggleAll}
                />
              </th>
            )}
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
              <td colSpan={columnCount} className="px-4 py-6 text-center text-sm text-slate-500">
                {loading ? <Spinner className="mx-auto h-5 w-5" /> : empty}
              </td>
            </tr>
          ) : (
            rows.map((row, index) => {
              const key = keys[index] ?? rowKey(row);
              return (
                <GridRow
                  key={key}
                  row={row}
                  rowId={key}
                  columns={columns}
                  checked={selection ? selection.selected.has(key) : undefined}
                  checkLabel={selection ? (selection.rowLabel?.(row) ?? 'Select row') : undefined}
                  onToggle={selection?.onToggle}
                />
              );
            })
          )}
        </tbody>
      </table>
    </div>
  );
}
