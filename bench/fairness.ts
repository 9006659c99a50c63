// Fairness under many connections: 200 connections on `GET /v1/contacts` of one tenant (A), with the
// latency distribution of every answer, then the same flood while another tenant (B) reads its own
// contacts grid at a few connections. Goals: no request over 2 s, p99 under 5x p50; a saturated gateway
// answers 503 with Retry-After at once rather than holding a connection; B is not starved by A.
//
// Alone: `pnpm --filter ./bench exec tsx fairness.ts` starts its own gateway (BENCH_GATEWAY_PORT, else
// BENCH_PORT_BASE + 1000, else 4210) on a fresh embedded database (or DATABASE_URL's server).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { table } from './lib.ts';

const CONNECTIONS = Number(process.env.BENCH_FAIRNESS_CONNECTIONS ?? 200);
const SECONDS = Number(process.env.BENCH_FAIRNESS_SECONDS ?? 10);
const SLOW_MS = 2000;
/** Seconds after the start of A's flood when B starts. */
const B_DELAY_S = 2;
const PATH = '/v1/contacts?page=1&perPage=25';

interface Sample {
  /** ms from the request's start to the end of its answer. */
  ms: number;
  status: number;
}

interface Run {
  samples: Sample[];
  errors: number;
  timeouts: number;
  seconds: number;
}

async function signIn(gatewayUrl: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${gatewayUrl}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`sign-in of ${email}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** As a browser asks: the grid's answer is compressed above 1 KiB. */
const headersOf = (token: string) => ({ authorization: `Bearer ${token}`, 'accept-encoding': 'br, gzip' });

/** autocannon with every answer's latency and status kept (its own histogram has no per-status split). */
function load(url: string, token: string, connections: number, seconds: number): Promise<Run> {
  const samples: Sample[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${url}${PATH}`,
        connections,
        duration: seconds,
        // Longer than any answer should take: a held connection shows up as a latency, not as a retry.
        timeout: 60,
        headers: headersOf(token),
      },
      (err, res) =>
        err
          ? reject(err)
          : resolve({ samples, errors: res.errors - res.timeouts, timeouts: res.timeouts, seconds: res.duration }),
    );
    instance.on('response', (_client, status, _bytes, ms) => samples.push({ ms, status }));
  });
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * q) - 1))] ?? 0;
}

const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));

function row(name: string, run: Run): (string | number)[] {
  const ok = run.samples.filter((s) => s.status === 200).map((s) => s.ms);
  const all = run.samples.map((s) => s.ms).sort((a, b) => a - b);
  const okSorted = ok.sort((a, b) => a - b);
  const p50 = quantile(okSorted, 0.5);
  const p99 = quantile(okSorted, 0.99);
  const busy = run.samples.filter((s) => s.status === 503).map((s) => s.ms);
  const other = run.samples.filter((s) => s.status !== 200 && s.status !== 503).length;
  return [
    name,
    run.samples.length,
    Math.round(ok.length / run.seconds),
    fmt(p50),
    fmt(quantile(okSorted, 0.95)),
    fmt(p99),
    fmt(all.at(-1) ?? 0),
    p50 > 0 ? (p99 / p50).toFixed(1) : '-',
    all.filter((ms) => ms > SLOW_MS).length,
    busy.length,
    busy.length
      ? fmt(
          quantile(
            busy.sort((a, b) => a - b),
            0.99,
          ),
        )
      : '-',
    other + run.errors + run.timeouts,
  ];
}

export async function fairnessBench(gatewayUrl: string): Promise<string> {
  const tokenA = await signIn(gatewayUrl, 'owner@acme.test', 'owner-pass-2026');
  const tokenB = await signIn(gatewayUrl, 'owner@lab.test', 'lab-pass-2026');
  // Warm up (first reads of each tenant, compiled routes) so the runs measure the steady state.
  await load(gatewayUrl, tokenA, 10, 1);
  await load(gatewayUrl, tokenB, 2, 1);

  // The machine's own floor: a bare node:http server answering the same bytes at once, same run.
  const page = await fetch(`${gatewayUrl}${PATH}`, { headers: headersOf(tokenA) });
  const pageBytes = Buffer.from(await page.arrayBuffer());
  const encoding = page.headers.get('content-encoding');
  const bare = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json; charset=utf-8');
      if (encoding) res.setHeader('content-encoding', encoding);
      res.end(pageBytes);
    });
  });
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  const bareRun = await load(`http://127.0.0.1:${(bare.address() as AddressInfo).port}`, tokenA, CONNECTIONS, SECONDS);
  bare.close();

  const alone = await load(gatewayUrl, tokenA, CONNECTIONS, SECONDS);
  // B starts once A's connections are open and flooding (a connection opened in the same instant
  // as A's 200 waits its turn to be accepted, one per turn of the event loop), and ends with A.
  const [flood, other] = await Promise.all([
    load(gatewayUrl, tokenA, CONNECTIONS, SECONDS),
    new Promise((r) => setTimeout(r, B_DELAY_S * 1000)).then(() => load(gatewayUrl, tokenB, 4, SECONDS - B_DELAY_S)),
  ]);
  const rows: (string | number)[][] = [
    [
      `GET ${PATH}`,
      'answers',
      '200/s',
      'p50 ms',
      'p95',
      'p99',
      'max',
      'p99/p50',
      `> ${SLOW_MS / 1000} s`,
      '503',
      '503 p99 ms',
      'other/errors',
    ],
    row(`bare node:http, same bytes, ${CONNECTIONS} connections`, bareRun),
    row(`tenant A, ${CONNECTIONS} connections`, alone),
    row(`tenant A, ${CONNECTIONS} connections, with B`, flood),
    row(`tenant B, 4 connections, from ${B_DELAY_S} s into A's flood`, other),
  ];
  return `${table(rows)}\n(latencies of 200 answers; "> 2 s" and max count every answer; ${SECONDS} s per run)`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { startGateway } = await import('../scripts/system.mjs');
  const port =
    process.env.BENCH_GATEWAY_PORT ??
    (process.env.BENCH_PORT_BASE ? String(Number(process.env.BENCH_PORT_BASE) + 1000) : '4210');
  const url = `http://localhost:${port}`;
  const gateway = startGateway({
    ...process.env,
    PORT: port,
    QUIET: '1',
    GATEWAY_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'console-bench-')),
    LOGIN_THROTTLE_ACCOUNT_MAX: '1000000',
    LOGIN_THROTTLE_ADDRESS_MAX: '1000000',
  });
  try {
    for (let i = 0; ; i++) {
      if ((await fetch(`${url}/health`).catch(() => null))?.ok) break;
      if (i > 300) throw new Error('the gateway did not start');
      await new Promise((r) => setTimeout(r, 200));
    }
    console.log(`## Fairness under ${CONNECTIONS} connections\n${await fairnessBench(url)}`);
  } finally {
    gateway.kill('SIGTERM');
  }
}
