/**
 * Which contacts a bulk action applies to (the Gmail pattern): rows picked by id, or, after the
 * whole page was picked, every contact that matches the filter. Pure functions, no React.
 */
import type { ContactFilter, ContactSelection } from '@console/shared/contracts';

export type GridSelection = { kind: 'ids'; ids: ReadonlySet<string> } | { kind: 'filter' };

export const NO_SELECTION: GridSelection = { kind: 'ids', ids: new Set() };

/** Flip one row. In "all that match" mode this drops back to the page's rows without that one. */
export function toggleRow(selection: GridSelection, id: string, pageIds: readonly string[]): GridSelection {
  const ids = new Set(selection.kind === 'ids' ? selection.ids : pageIds);
  if (ids.has(id)) ids.delete(id);
  else ids.add(id);
  return { kind: 'ids', ids };
}

/** The header checkbox: check adds the page's rows; uncheck removes them (and ends "all that match"). */
export function togglePage(selection: GridSelection, pageIds: readonly string[], checked: boolean): GridSelection {
  if (selection.kind === 'filter') return checked ? selection : NO_SELECTION;
  const ids = new Set(selection.ids);
  for (const id of pageIds) {
    if (checked) ids.add(id);
    else ids.delete(id);
  }
  return { kind: 'ids', ids };
}

/** The rows of this page that show checked. */
export function checkedOnPage(selection: GridSelection, pageIds: readonly string[]): ReadonlySet<string> {
  if (selection.kind === 'filter') return new Set(pageIds);
  return new Set(pageIds.filter((id) => selection.ids.has(id)));
}

/** How many contacts the selection stands for (`total`: the filter's result count). */
export function selectedCount(selection: GridSelection, total: number): number {
  return selection.kind === 'filter' ? total : selection.ids.size;
}

/** Offer "Select all N contacts that match": the whole page is picked and more contacts match. */
export function offersSelectAll(selection: GridSelection, pageIds: readonly string[], total: number): boolean {
  if (selection.kind !== 'ids' || pageIds.length === 0) return false;
  return pageIds.every((id) => selection.ids.has(id)) && total > selection.ids.size;
}

/** The wire selection of a bulk call, or null when nothing is selected. */
export function toContactSelection(selection: GridSelection, filter: ContactFilter): ContactSelection | null {
  if (selection.kind === 'filter') return { filter };
  return selection.ids.size === 0 ? null : { ids: [...selection.ids] };
}
