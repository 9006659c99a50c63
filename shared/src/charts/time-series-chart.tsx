import { useEffect, useId, useRef, useState } from 'react';
import { colorAt, tableRows, timeAxisRange, type Series } from './series';

export interface TimeSeriesChartProps {
  /** The chart's name (its accessible name and the table's caption). */
  title: string;
  /** Points in time, in seconds since the epoch, ascending. */
  times: number[];
  series: Omit<Series, 'color'>[];
  /** How a point's time is written in the table. */
  formatTime: (seconds: number) => string;
  height?: number;
  /** The time axis spans at least this many seconds, centred on the points (default: half an hour). */
  minSpanSeconds?: number;
}

/**
 * A line chart over time (uPlot, loaded with the charts entry only by the screens that draw one),
 * with a 'Show as table' switch: the same figures as a table, for screen readers and for exact
 * numbers.
 */
export function TimeSeriesChart({
  title,
  times,
  series,
  formatTime,
  height = 240,
  minSpanSeconds = 30 * 60,
}: TimeSeriesChartProps) {
  const [asTable, setAsTable] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const coloured: Series[] = series.map((s, i) => ({ ...s, color: colorAt(i) }));

  useEffect(() => {
    const el = box.current;
    if (asTable || !el) return;
    let chart: { destroy(): void; setSize(size: { width: number; height: number }): void } | null = null;
    let observer: ResizeObserver | null = null;
    let cancelled = false;
    // uPlot and its style sheet load with the first chart drawn, not with the screen's start.
    // Named chunks ("uplot"), so a page's downloads say whether it loaded the chart library.
    void Promise.all([
      import(/* webpackChunkName: "uplot" */ 'uplot'),
      import(/* webpackChunkName: "uplot-style" */ './uplot-style'),
    ])
      .then(([{ default: UPlot }]) => {
        if (cancelled) return;
        chart = new UPlot(
          {
            width: el.clientWidth || 600,
            height,
            legend: { show: true },
            scales: {
              x: {
                time: true,
                range: (_u: unknown, min: number, max: number) => timeAxisRange(times, minSpanSeconds) ?? [min, max],
              },
            },
            axes: [{ stroke: '#334155' }, { stroke: '#334155' }],
            series: [{}, ...coloured.map((s) => ({ label: s.label, stroke: s.color, width: 2 }))],
          },
          [times, ...coloured.map((s) => s.values)],
          el,
        );
        if (typeof ResizeObserver !== 'undefined') {
          observer = new ResizeObserver(() => chart?.setSize({ width: el.clientWidth, height }));
          observer.observe(el);
        }
      })
      .catch(() => setAsTable(true)); // no canvas (old browser, tests): the table says the same
    return () => {
      cancelled = true;
      observer?.disconnect();
      chart?.destroy();
    };
    // The chart is drawn again when the figures change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [asTable, height, minSpanSeconds, JSON.stringify(times), JSON.stringify(series)]);

  const rows = tableRows(times.map(formatTime), coloured);
  return (
    <figure aria-labelledby={titleId} className="m-0">
      <div className="flex items-center justify-between gap-2">
        <figcaption id={titleId} className="font-semibold text-slate-900">
          {title}
        </figcaption>
        <button
          type="button"
          className="text-sm text-brand-700 underline"
          aria-pressed={asTable}
          onClick={() => setAsTable((v) => !v)}
        >
          Show as table
        </button>
      </div>
      {asTable ? (
        <div className="mt-2 max-h-80 overflow-auto">
          <table className="min-w-full text-sm">
            <caption className="sr-only">{title}</caption>
            <thead>
              <tr>
                <th scope="col" className="px-2 py-1 text-left">
                  Time
                </th>
                {coloured.map((s) => (
                  <th key={s.label} scope="col" className="px-2 py-1 text-right">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, i) => (
                <tr key={`${row.label}-${i}`} className="border-t border-slate-100">
                  <th scope="row" className="px-2 py-1 text-left font-normal">
                    {row.label}
                  </th>
                  {row.values.map((v, j) => (
                    <td key={coloured[j]?.label} className="px-2 py-1 text-right tabular-nums">
                      {v.toLocaleString('en-US')}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <div
          ref={box}
          className="mt-2 w-full"
          role="img"
          aria-label={`${title}: chart; use Show as table for the figures`}
        />
      )}
    </figure>
  );
}
