/**
 * How long this process's event loop was held up (perf_hooks.monitorEventLoopDelay): the delays of a
 * timer due every RESOLUTION_MS, since the monitor started. On embedded PGlite the database runs in
 * this thread, so a long statement shows here as a long delay, for every tenant at once.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

const RESOLUTION_MS = 10;

export interface EventLoopDelaySummary {
  /** Seconds since the monitor started (the figures cover them). */
  sinceSeconds: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

const ms = (ns: number) => Math.round(ns / 1e4) / 100;

export class EventLoopDelay {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  private readonly started = performance.now();

  constructor() {
    this.histogram.enable();
  }

  summary(): EventLoopDelaySummary {
    const h = this.histogram;
    const any = h.count > 0;
    return {
      sinceSeconds: Math.round((performance.now() - this.started) / 1000),
      p50Ms: any ? ms(h.percentile(50)) : 0,
      p99Ms: any ? ms(h.percentile(99)) : 0,
      maxMs: any ? ms(h.max) : 0,
    };
  }

  stop(): void {
    this.histogram.disable();
  }
}
