export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
}

export function p95(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)] ?? 0;
}

export const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

export function table(rows: (string | number)[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => String(r[i] ?? '').length))) ?? [];
  return rows.map((r) => r.map((c, i) => String(c).padEnd(widths[i] ?? 0)).join('  ')).join('\n');
}
