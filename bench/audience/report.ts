// Figures as markdown: tables, milliseconds, rates and met / not met verdicts.
import os from 'node:os';
import { median, p95 } from '../lib.ts';

export type Cell = string | number;

/** A markdown table with aligned columns; the first row is the header. */
export function mdTable(rows: readonly (readonly Cell[])[]): string {
  const [head, ...body] = rows;
  if (!head) return '';
  const widths = head.map((_, i) => Math.max(3, ...rows.map((r) => String(r[i] ?? '').length)));
  const line = (r: readonly Cell[]) => `| ${r.map((c, i) => String(c).padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(head), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...body.map(line)].join('\n');
}

export const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
export const int = (n: number) => Math.round(n).toLocaleString('en');

export interface Summary {
  n: number;
  median: number;
  p95: number;
  max: number;
}

export function summarise(samples: readonly number[]): Summary {
  return {
    n: samples.length,
    median: median([...samples]),
    p95: p95([...samples]),
    max: samples.length ? Math.max(...samples) : 0,
  };
}

export function verdict(ok: boolean): string {
  return ok ? 'met' : '**not met**';
}

/** Machine, date and load, for the head of a report. */
export function machineLine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  const ram = `${Math.round(os.totalmem() / 2 ** 30)} GiB RAM`;
  return `${new Date().toISOString()}, ${os.cpus().length} × ${cpu}, ${ram}, Node ${process.version}, load average ${load}`;
}
