/** Whole numbers with thousands separators: 12345 -> '12,345'. */
export const formatCount = (value: number): string => value.toLocaleString('en-US');

/** A calendar date for grids: 'Mar 4, 2026'; the raw text when it is not a date. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}
