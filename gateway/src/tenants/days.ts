/** Per-day chart points (UTC days, YYYY-MM-DD), zero on days without a value. */
export function daySeries(start: Date, end: Date, values: Map<string, number>): { date: string; value: number }[] {
  const out: { date: string; value: number }[] = [];
  const first = Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate());
  for (let t = first; t < end.getTime(); t += 86_400_000) {
    const date = new Date(t).toISOString().slice(0, 10);
    out.push({ date, value: values.get(date) ?? 0 });
  }
  return out;
}
