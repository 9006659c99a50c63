import { APPS, GATEWAY, INBOUND_SMTP } from '../scripts/topology.mjs';

/** The shell's port in the topology: every app's offset from it is kept. */
const SHELL_DEFAULT_PORT = APPS.find((app) => app.name === 'shell')?.port ?? 3000;

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
 * The environment of a benchmark's own system: its ports (BENCH_PORT_BASE, default 3200), every app
 * of the topology moved by the same offset (the shell on base, the remotes on base+1..base+5, the
 * sample applet on base+6, the gateway on base+1000, its inbound SMTP receiver on base+1001), so a
 * bench runs beside a started system and two checkouts can bench at once; a fresh embedded database,
 * and login throttling out of the way.
 */
export function benchSystemEnv(dataDir: string): Record<string, string> {
  const base = Number(process.env.BENCH_PORT_BASE ?? 3200);
  const shift = base - SHELL_DEFAULT_PORT;
  const ports = Object.fromEntries(APPS.map((app) => [app.portEnv, String(app.port + shift)]));
  return {
    ...ports,
    [GATEWAY.portEnv]: String(base + 1000),
    [INBOUND_SMTP.portEnv]: String(base + 1001),
    GATEWAY_DATA_DIR: dataDir,
    LOGIN_THROTTLE_ACCOUNT_MAX: '1000000',
    LOGIN_THROTTLE_ADDRESS_MAX: '1000000',
    // The throughput rows measure the key check, not its per-key rate limit.
    API_KEY_RATE_LIMIT: '0',
  };
}
