import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import uPlotCss from 'uplot/dist/uPlot.min.css?inline';
import type { DeliveryTimeline } from '@console/shared/contracts';
import { SERIES, chartColumns } from './timeline-series';

const STYLE_ID = 'console-uplot-styles';

/** uPlot's stylesheet, once per document. */
function addStyles() {
  if (document.getElementById(STYLE_ID)) return;
  const style = document.createElement('style');
  style.id = STYLE_ID;
  style.textContent = uPlotCss;
  document.head.append(style);
}

/**
 * The delivery chart (uPlot, ARCHITECTURE.md charts): its own chunk, loaded with the log only. The
 * canvas is hidden from assistive technology; the log offers the same figures as a table.
 */
export default function TimelineChart({ timeline }: { timeline: DeliveryTimeline }) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);

  useEffect(() => {
    const node = host.current;
    if (!node) return;
    addStyles();
    const width = Math.max(320, node.clientWidth);
    plot.current = new uPlot(
      {
        width,
        height: 260,
        series: [{}, ...SERIES.map((s) => ({ label: s.label, stroke: s.color, width: 2 }))],
        axes: [{}, { size: 60 }],
        scales: { x: { time: true } },
      },
      chartColumns(timeline),
      node,
    );
    const resize = new ResizeObserver(() =>
      plot.current?.setSize({ width: Math.max(320, node.clientWidth), height: 260 }),
    );
    resize.observe(node);
    return () => {
      resize.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
    // The chart is built once; new figures go through setData below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    plot.current?.setData(chartColumns(timeline));
  }, [timeline]);

  return <div ref={host} aria-hidden="true" data-testid="delivery-chart" className="w-full" />;
}
