/** Chart data shaping, pure: what the charts and their table alternatives show. */

export interface Series {
  label: string;
  /** One value per point of the x axis. */
  values: number[];
  /** A colour with at least 3:1 contrast on white (WCAG 2.2 non-text contrast). */
  color: string;
}

/** Colours for up to eight series, each at least 3:1 against white and told apart by more than hue alone (the table has the exact figures). */
export const SERIES_COLORS = [
  '#1d4ed8', // blue
  '#047857', // green
  '#b45309', // amber
  '#7c3aed', // violet
  '#be123c', // rose
  '#0e7490', // cyan
  '#4d7c0f', // lime
  '#475569', // slate
] as const;

export function colorAt(index: number): string {
  return SERIES_COLORS[index % SERIES_COLORS.length] ?? SERIES_COLORS[0];
}

/** The table alternative of a chart: a row per x value, a column per series. */
export function tableRows(x: string[], series: Series[]): { label: string; values: number[] }[] {
  return x.map((label, i) => ({ label, values: series.map((s) => s.values[i] ?? 0) }));
}

/** Each value's share of the largest one (0..1), for bar lengths. */
export function shares(values: number[]): number[] {
  const max = Math.max(0, ...values);
  return values.map((v) => (max > 0 ? Math.max(0, v) / max : 0));
}

/**
 * The time axis's range, in seconds: the points' own span, widened evenly around them to at least
 * minSpan. A send that fits in one minute is one point; left to itself, the chart library spreads
 * a single point's axis over years. Returns null when there are no points (the library decides).
 */
export function timeAxisRange(times: number[], minSpan: number): [number, number] | null {
  if (times.length === 0) return null;
  const min = Math.min(...times);
  const max = Math.max(...times);
  const pad = Math.max(0, minSpan - (max - min)) / 2;
  return [min - pad, max + pad];
}
