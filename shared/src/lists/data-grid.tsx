import { memo, useEffect, useReducer, useRef, useState, type FocusEvent, type ReactNode } from 'react';
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

/**
 * Pages with more rows than this render only the rows in and near the grid's scroll area (TanStack Virtual,
 * ARCHITECTURE.md libraries): laying out and painting hundreds of table rows holds up the frame after a page
 * arrives (bench/README.md, "The grid's windowed body"). Smaller pages render every row plainly.
 */
export const VIRTUALIZE_ABOVE = 50;
/** A body row's height before it is measured: py-3 around a 20 px text-sm line, plus the 1 px divider. */
const ROW_ESTIMATE = 45;

type VirtualModule = typeof import('./data-grid-virtual');
/** The windowed body, its own chunk: loaded once, the first time a grid needs it (or preloadVirtualRows). */
let virtualModule: VirtualModule | null = null;
let virtualFailed = false;
let virtualLoading: Promise<VirtualModule | null> | null = null;

/**
 * Starts loading the windowed body. QueryGrid calls it as soon as its page size is above VIRTUALIZE_ABOVE, so the
 * chunk is in while the first page is still being fetched and the rows render windowed from their first commit.
 */
export function preloadVirtualRows(): Promise<VirtualModule | null> {
  virtualLoading ??= import('./data-grid-virtual').then(
    (module) => (virtualModule = module),
    () => {
      // Without the chunk every row renders plainly: slower, never missing rows.
      virtualFailed = true;
      return null;
    },
  );
  return virtualLoading;
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
  /** 0-based position on the page: aria-rowindex is this + 2 (the header row is 1), data-index for the virtualizer. */
  index: number;
  /** Set in a windowed body: measures the row's real height. */
  measureRef?: (element: HTMLTableRowElement | null) => void;
  columns: readonly RowColumn[];
  /** Undefined without selection. */
  checked: boolean | undefined;
  checkLabel: string | undefined;
  onToggle: ((key: string) => void) | undefined;
}

/** One body row; skipped on re-render unless its row, columns or checked state changed. */
const GridRow = memo(function GridRow({
  row,
  rowId,
  index,
  measureRef,
  columns,
  checked,
  checkLabel,
  onToggle,
}: GridRowProps) {
  return (
    <tr ref={measureRef} data-index={index} aria-rowindex={index + 2} className={checked ? 'bg-brand-50' : undefined}>
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

/** An aria-hidden row standing for `height` px of body rows that are not rendered (keeps a real table layout). */
function SpacerRow({ height, columnCount }: { height: number; columnCount: number }) {
  return (
    <tr aria-hidden="true">
      <td colSpan={columnCount} style={{ height, padding: 0, border: 0 }} />
    </tr>
  );
}

/**
 * A semantic table with sortable headers, an empty row, a loading state and optional row selection.
 * No data fetching. Body rows are memoised (a page of 500 rows re-renders only what changed).
 *
 * A page of more than VIRTUALIZE_ABOVE rows scrolls inside the grid (at most 70vh, sticky header) and renders only
 * the rows in and near view, with spacer rows for the rest. Screen readers still get the page's size and each row's
 * place (aria-rowcount on the table, aria-rowindex on every row); a row holding the focus stays rendered when it is
 * scrolled out; selection works on all rows of the page, rendered or not.
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
  const virtual = rows.length > VIRTUALIZE_ABOVE && !virtualFailed;
  // State, not a ref: the windowed body's layout effects run before an ancestor's ref is set, and its virtualizer
  // must see the scroll area (to follow its scrolling) from the commit in which the area appears.
  const [scrollArea, setScrollArea] = useState<HTMLDivElement | null>(null);
  // Re-render once the windowed body's chunk is in (until then the first rows render plainly, see below).
  const [, loaded] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    if (virtual && !virtualModule) void preloadVirtualRows().then(loaded);
  }, [virtual]);
  // The row holding the focus (by key, so it follows its row), kept rendered in a windowed body.
  const [focusedKey, setFocusedKey] = useState<string | null>(null);
  const onFocus = (event: FocusEvent<HTMLTableSectionElement>) => {
    const index = Number(event.target.closest('tr')?.getAttribute('data-index') ?? -1);
    const key = index >= 0 ? (keys[index] ?? null) : null;
    if (key !== focusedKey) setFocusedKey(key);
  };
  const onBlur = (event: FocusEvent<HTMLTableSectionElement>) => {
    if (!(event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget)))
      setFocusedKey(null);
  };
  const selectedOnPage = selection ? keys.filter((key) => selection.selected.has(key)).length : 0;
  const allChecked = keys.length > 0 && selectedOnPage === keys.length;
  const columnCount = columns.length + (selection ? 1 : 0);
  const renderRow = (index: number, measureRef?: (element: HTMLTableRowElement | null) => void) => {
    const row = rows[index] as T;
    const key = keys[index] ?? String(index);
    return (
      <GridRow
        key={key}
        row={row}
        rowId={key}
        index={index}
        measureRef={measureRef}
        columns={columns}
        checked={selection ? selection.selected.has(key) : undefined}
        checkLabel={selection ? (selection.rowLabel?.(row) ?? 'Select row') : undefined}
        onToggle={selection?.onToggle}
      />
    );
  };
  return (
    <div
      ref={virtual ? setScrollArea : undefined}
      // A bounded scroll area must be reachable from the keyboard even when its rows hold nothing focusable.
      {...(virtual ? { role: 'region', 'aria-label': label, tabIndex: 0 } : {})}
      className={[virtual ? 'max-h-[70vh] overflow-auto' : 'overflow-x-auto', className].filter(Boolean).join(' ')}
    >
      <table
        aria-label={label}
        aria-busy={loading || undefined}
        aria-rowcount={rows.length > 0 ? rows.length + 1 : undefined}
        className="min-w-full divide-y divide-slate-200"
      >
        <thead className={virtual ? 'sticky top-0 z-10 bg-slate-50' : 'bg-slate-50'}>
          <tr aria-rowindex={rows.length > 0 ? 1 : undefined}>
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
        <tbody
          className={`divide-y divide-slate-200 bg-white ${loading ? 'opacity-60' : ''}`}
          onFocus={virtual ? onFocus : undefined}
          onBlur={virtual ? onBlur : undefined}
        >
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columnCount} className="px-4 py-6 text-center text-sm text-slate-500">
                {loading ? <Spinner className="mx-auto h-5 w-5" /> : empty}
              </td>
            </tr>
          ) : !virtual ? (
            rows.map((_, index) => renderRow(index))
          ) : virtualModule ? (
            <virtualModule.VirtualRows
              count={rows.length}
              scrollElement={scrollArea}
              estimate={ROW_ESTIMATE}
              spacer={(height) => <SpacerRow height={height} columnCount={columnCount} />}
              itemKey={(index) => keys[index] ?? String(index)}
              keepIndex={focusedKey === null ? -1 : keys.indexOf(focusedKey)}
              renderRow={renderRow}
            />
          ) : (
            // The chunk is still loading (first big page, no preload): the first rows plainly, the rest a spacer;
            // the windowed body then renders the same first screen, so nothing flashes.
            <>
              {rows.slice(0, VIRTUALIZE_ABOVE).map((_, index) => renderRow(index))}
              <SpacerRow height={(rows.length - VIRTUALIZE_ABOVE) * ROW_ESTIMATE} columnCount={columnCount} />
            </>
          )}
        </tbody>
      </table>
    </div>
  );
}
