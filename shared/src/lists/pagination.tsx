import { useId } from 'react';
import type { Pagination as PaginationData } from '@console/shared/contracts/core';
import { PAGE_SIZES, showingText } from './list-query';
import { Button } from '@console/shared/ui';

export interface ListPaginationProps {
  /** The list response's pagination: starting, ending, count, previous, next. */
  pagination: PaginationData;
  /** Called with the previous or next page number. */
  onPage: (page: number) => void;
  perPage: number;
  /** Called with the chosen page size. */
  onPerPage: (perPage: number) => void;
  /** Sizes offered; the spec's six by default. */
  pageSizes?: readonly number[];
  /** Blocks the controls (e.g. while a page is loading). */
  disabled?: boolean;
  className?: string;
}

/**
 * A grid's footer: 'Showing x to y of z results', a page-size select and Previous/Next. Named
 * ListPagination because `Pagination` is already the contract's schema and type.
 */
export function ListPagination({
  pagination,
  onPage,
  perPage,
  onPerPage,
  pageSizes = PAGE_SIZES,
  disabled = false,
  className,
}: ListPaginationProps) {
  const selectId = useId();
  // A size saved by another grid may not be in this one's list: still show it as selected.
  const sizes = pageSizes.includes(perPage) ? pageSizes : [...pageSizes, perPage].sort((a, b) => a - b);
  const { previous, next } = pagination;
  return (
    <nav
      aria-label="Pagination"
      className={['flex flex-wrap items-center justify-between gap-3 py-3', className].filter(Boolean).join(' ')}
    >
      <p className="text-sm text-slate-700" aria-live="polite">
        {showingText(pagination)}
      </p>
      <div className="flex items-center gap-3">
        <label htmlFor={selectId} className="text-sm text-slate-700">
          Per page
        </label>
        <select
          id={selectId}
          value={perPage}
          disabled={disabled}
          onChange={(event) => onPerPage(Number(event.target.value))}
          className="rounded-control border-0 bg-white py-1.5 pr-8 pl-3 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 focus:outline-none disabled:opacity-60"
        >
          {sizes.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
        <Button
          variant="secondary"
          size="sm"
          disabled={disabled || previous === null}
          onClick={() => {
            if (previous !== null) onPage(previous);
          }}
        >
          Previous
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={disabled || next === null}
          onClick={() => {
            if (next !== null) onPage(next);
          }}
        >
          Next
        </Button>
      </div>
    </nav>
  );
}
