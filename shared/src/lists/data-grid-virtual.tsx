import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { Fragment, useCallback, type ReactNode } from 'react';

/**
 * The windowed body of a big DataGrid page (loaded as its own chunk by data-grid.tsx, only once a page
 * has more rows than it renders plainly). TanStack Virtual (ARCHITECTURE.md, libraries) picks the rows
 * in and near the scroll area; the rest are two or more aria-hidden spacer rows of the missing height,
 * so the body stays a real table (columns aligned by the browser's table layout, no absolute positioning).
 */

/** Rows rendered beyond each edge of the scroll area (modest: each row costs layout and paint). */
const OVERSCAN = 10;

export interface VirtualRowsProps {
  count: number;
  /** The grid's bounded scroll area (null until it is in the DOM). */
  scrollElement: HTMLElement | null;
  /** A row's height before it is measured. */
  estimate: number;
  /** An aria-hidden spacer row standing for `height` px of rows that are not rendered. */
  spacer: (height: number) => ReactNode;
  /** Stable key of the row at an index (the grid's rowKey): measured heights follow the row, not the slot. */
  itemKey: (index: number) => string;
  /** A row that holds the focus: always rendered, even scrolled far out, so the focus is never lost. -1 for none. */
  keepIndex: number;
  /** The row at an index; `measureRef` goes on its <tr> (which carries data-index) to measure its real height. */
  renderRow: (index: number, measureRef: (element: HTMLTableRowElement | null) => void) => ReactNode;
}

export function VirtualRows({
  count,
  scrollElement,
  estimate,
  spacer,
  itemKey,
  keepIndex,
  renderRow,
}: VirtualRowsProps) {
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      if (keepIndex < 0 || keepIndex >= range.count || indexes.includes(keepIndex)) return indexes;
      return [...indexes, keepIndex].sort((a, b) => a - b);
    },
    [keepIndex],
  );
  // No React Compiler in this build; the virtualizer re-renders this component itself when the window moves.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer<HTMLElement, HTMLTableRowElement>({
    count,
    getScrollElement: () => scrollElement,
    estimateSize: () => estimate,
    getItemKey: itemKey,
    overscan: OVERSCAN,
    rangeExtractor,
    // The first commit already renders a screenful (the scroll area is at most 70vh); the real size follows.
    initialRect: { width: 0, height: typeof window === 'undefined' ? 0 : Math.round(window.innerHeight * 0.7) },
  });
  const out: ReactNode[] = [];
  // The header sits above the body inside the scroll area; offsets here are from the top of the body.
  let end = 0;
  for (const item of virtualizer.getVirtualItems()) {
    if (item.start > end) {
      out.push(<Fragment key={end === 0 ? 'gap-top' : `gap-${item.index}`}>{spacer(item.start - end)}</Fragment>);
    }
    out.push(renderRow(item.index, virtualizer.measureElement));
    end = item.end;
  }
  const rest = virtualizer.getTotalSize() - end;
  if (rest > 0) out.push(<Fragment key="gap-end">{spacer(rest)}</Fragment>);
  return <>{out}</>;
}
