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

/**
 * The environment of a benchmark's own system: its ports (BENCH_PORT_BASE, default 3200: the shell on
 * base, the remotes on base+1..base+5, the gateway on base+1000, so two checkouts can bench at once),
 * a fresh embedded database, and login throttling out of the way.
 */
export function benchSystemEnv(dataDir: string): Record<string, string> {
  const base = Number(process.env.BENCH_PORT_BASE ?? 3200);
  return {
    SHELL_PORT: String(base),
    MFE_ENGAGEMENT_PORT: String(base + 1),
    MFE_ONBOARDING_PORT: String(base + 2),
    MFE_ADVERTISING_PORT: String(base + 3),
    MFE_ACCOUNT_PORT: String(base + 4),
    MFE_ADMIN_PORT: String(base + 5),
    GATEWAY_PORT: String(base + 1000),
    GATEWAY_DATA_DIR: dataDir,
    LOGIN_THROTTLE_ACCOUNT_MAX: '1000000',
    LOGIN_THROTTLE_ADDRESS_MAX: '1000000',
  };
}
