// One tenant's weight on the others, on embedded PGlite (the default database, in the gateway's own
// thread): a tenant of BENCH_STALL_CONTACTS (300,000) contacts is written to and its grid (first and
// deep pages), search and segment count are read in a loop, while a CSV import of BENCH_STALL_IMPORT_MB
// (50) MB runs into it; meanwhile another tenant's `GET /v1/contacts` and `/health` are probed one after
// the other. Prints the probes' p50/p95/p99/max and the gateway's event-loop delay (p99, max, from
// /health: perf_hooks.monitorEventLoopDelay in the gateway process). Goal: probes' p99 under 250 ms.
//
// The gateway runs as its own process (its production bundle, gateway/launch.mjs) on
// BENCH_PORT_BASE+1000 over a data directory prepared here (the generator writes the PGlite files,
// then closes them), so the probes are sent on time whatever the gateway's thread is doing. Standalone: `pnpm bench:stall` (SLOW_STATEMENT_MS=300
// prints the gateway's slowest statements too).
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ContactPage, ImportJob, SegmentGroup } from '../gateway/src/contracts.ts';
import { openBenchDb } from './audience/db.ts';
import { Api } from './audience/gateway.ts';
import { generateAudience, type GeneratedAudience } from './audience/generate.ts';
import { IMPORT_MAPPING, writeImportCsv } from './audience/import-csv.ts';
import { LAST_NAMES } from './audience/vocabulary.ts';
import { table } from './lib.ts';
import { GATEWAY_DIR, gatewayArgs } from '../gateway/launch.mjs';

const CONTACTS = Number(process.env.BENCH_STALL_CONTACTS ?? 300_000);
const IMPORT_MB = Number(process.env.BENCH_STALL_IMPORT_MB ?? 50);
/** The load phase ends with the import, or after this long at most. */
const MAX_SECONDS = Number(process.env.BENCH_STALL_MAX_SECONDS ?? 600);
const PROBE_EVERY_MS = 100;
export const PROBE_GOAL_MS = 250;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((s.length * p) / 100) - 1))] ?? 0;
}

const fmt = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(ms < 100 ? 1 : 0)} ms`);

function distribution(label: string, xs: readonly number[]): (string | number)[] {
  return [label, xs.length, fmt(percentile(xs, 50)), fmt(percentile(xs, 95)), fmt(percentile(xs, 99)), fmt(Math.max(0, ...xs))]; // prettier-ignore
}

interface GatewayProcess {
  url: string;
  proc: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

async function startGatewayProcess(dataDir: string, port: number): Promise<GatewayProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    QUIET: '1',
    GATEWAY_PORT: String(port),
    GATEWAY_DATA_DIR: dataDir,
    LOGIN_THROTTLE_ACCOUNT_MAX: '1000000',
    LOGIN_THROTTLE_ADDRESS_MAX: '1000000',
    // The loaded tenant is larger than embedded PGlite's contact limit (docs/storage.md).
    PGLITE_CONTACT_LIMIT: '0',
  };
  delete env.DATABASE_URL;
  const proc = spawn(process.execPath, gatewayArgs('main'), {
    cwd: GATEWAY_DIR,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  proc.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const end = Date.now() + 180_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the gateway exited (${proc.exitCode}):\n${output.slice(-2000)}`);
    const ok = await fetch(`${url}/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    if (Date.now() > end) throw new Error(`the gateway did not start:\n${output.slice(-2000)}`);
    await sleep(250);
  }
  return {
    url,
    proc,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
        setTimeout(() => proc.kill('SIGKILL'), 20_000).unref();
      }),
  };
}

/** The heavy tenant's reads and writes, in a loop while `running()`; each call's time by kind. */
async function heavyLoop(api: Api, g: GeneratedAudience, running: () => boolean): Promise<Map<string, number[]>> {
  const times = new Map<string, number[]>();
  const timed = async (kind: string, method: string, p: string, body?: unknown) => {
    const r = await api.ok(method, p, body);
    times.set(kind, [...(times.get(kind) ?? []), r.ms]);
    return r;
  };
  const nft = g.attributes.find((a) => a.key === 'nft_count');
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)] as T;
  const fields = ['created_at', 'updated_at', 'email', 'wallet', 'last_name'] as const;
  for (let i = 0; running(); i++) {
    await timed('write: POST /v1/contacts', 'POST', '/v1/contacts', {
      email: `stall-${Date.now()}-${i}@heavy.test`,
      last_name: pick(LAST_NAMES),
    });
    const first = await timed('grid: first page', 'GET', '/v1/contacts?page=1&perPage=25');
    const pages = Math.max(1, Math.ceil((first.body as ContactPage).pagination.count / 25));
    const sort = pick(fields);
    await timed('grid: random deep page, random sort', 'GET', `/v1/contacts?page=${1 + Math.floor(Math.random() * pages)}&perPage=25&sortField=${sort}&sortOrder=${pick(['asc', 'desc'])}`); // prettier-ignore
    const prefix = pick(LAST_NAMES).slice(0, 4).toLowerCase();
    await timed('search: last-name prefix', 'GET', `/v1/contacts?page=1&perPage=25&searchString=${prefix}`);
    const rule: SegmentGroup = {
      combinator: 'and',
      rules: [
        { field: 'status', operator: '=', value: 'subscribed' },
        { field: 'list', operator: 'in', value: [pick(g.listIds)] },
        ...(nft ? [{ field: `attr.${nft.key}`, operator: '>', value: pick([10, 50, 100, 200, 400]) }] : []),
      ],
    };
    await timed('segment count (3 rules)', 'POST', '/v1/segments/preview', { rule, limit: 0 });
  }
  return times;
}

/** Another tenant's grid and /health, one after the other, every PROBE_EVERY_MS until stopped. */
async function probeLoop(api: Api, running: () => boolean): Promise<{ grid: number[]; health: number[] }> {
  const grid: number[] = [];
  const health: number[] = [];
  while (running()) {
    grid.push((await api.ok('GET', '/v1/contacts?page=1&perPage=25')).ms);
    health.push((await api.ok('GET', '/health')).ms);
    await sleep(PROBE_EVERY_MS);
  }
  return { grid, health };
}

interface Health {
  eventLoopDelay: { sinceSeconds: number; p50Ms: number; p99Ms: number; maxMs: number };
}

export async function stallBench(log: (line: string) => void = console.log): Promise<string> {
  const base = Number(process.env.BENCH_PORT_BASE ?? 3200);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stall-bench-'));
  let gateway: GatewayProcess | null = null;
  try {
    // The data: a heavy tenant, a light one, and the import's file.
    const db = await openBenchDb({ kind: 'pglite', dir: path.join(dataDir, 'pglite') });
    const t0 = performance.now();
    const heavy = await generateAudience(db, { contacts: CONTACTS, tenantName: 'Heavy tenant', log });
    const light = await generateAudience(db, { contacts: 2000, tenantName: 'Light tenant' });
    // The import's date column maps to one more attribute of the heavy tenant.
    const joined = await db.query<{ id: string }>(
      `insert into custom_attributes (tenant_id, name, key, type) values ($1, 'Joined on', 'joined_on', 'date') returning id`,
      [heavy.tenantId],
    );
    if (joined.length !== 1) throw new Error('joined_on not created');
    await db.close();
    log(`  generated ${CONTACTS.toLocaleString('en')} + 2,000 contacts in ${((performance.now() - t0) / 1000).toFixed(0)} s`); // prettier-ignore
    const file = path.join(dataDir, 'import.csv');
    const csv = await writeImportCsv(file, Math.round((IMPORT_MB * 1024 * 1024) / 100));
    log(`  import file: ${csv.rows.toLocaleString('en')} rows, ${(csv.bytes / 1024 / 1024).toFixed(1)} MB`);

    gateway = await startGatewayProcess(dataDir, base + 1000);
    const heavyApi = await Api.signIn(gateway.url, heavy.ownerEmail, heavy.password);
    const lightApi = await Api.signIn(gateway.url, light.ownerEmail, light.password);

    // The load: the import started, the heavy loop and the probes until the import ends.
    const uploaded = await heavyApi.upload<ImportJob>('/v1/imports?fileName=stall-bench.csv', file);
    const started = performance.now();
    await heavyApi.ok('POST', `/v1/imports/${uploaded.body._id}/start`, {
      mapping: IMPORT_MAPPING,
      has_header: true,
      mode: 'update',
    });
    let importDone = false;
    let job: ImportJob = uploaded.body;
    const running = () => !importDone && performance.now() - started < MAX_SECONDS * 1000;
    const watcher = (async () => {
      let lastLog = performance.now();
      while (running()) {
        await sleep(1000);
        job = (await heavyApi.ok<ImportJob>('GET', `/v1/imports/${job._id}`)).body;
        if (['completed', 'failed', 'cancelled'].includes(job.status)) importDone = true;
        if (performance.now() - lastLog > 30_000) {
          lastLog = performance.now();
          log(`  import ${job.status}: ${job.rows_done.toLocaleString('en')} rows after ${((performance.now() - started) / 1000).toFixed(0)} s`); // prettier-ignore
        }
      }
    })();
    const [heavyTimes, probes] = await Promise.all([heavyLoop(heavyApi, heavy, running), probeLoop(lightApi, running), watcher]); // prettier-ignore
    const loadSeconds = (performance.now() - started) / 1000;
    const health = (await lightApi.ok<Health>('GET', '/health')).body;

    const all = [...probes.grid, ...probes.health];
    const p99 = percentile(all, 99);
    const rows: (string | number)[][] = [
      ['probe (other tenant)', 'n', 'p50', 'p95', 'p99', 'max'],
      distribution('GET /v1/contacts', probes.grid),
      distribution('GET /health', probes.health),
      distribution('both', all),
    ];
    const heavyRows: (string | number)[][] = [['heavy tenant (for reference)', 'n', 'p50', 'p95', 'p99', 'max']];
    for (const [kind, xs] of heavyTimes) heavyRows.push(distribution(kind, xs));
    const loop = health.eventLoopDelay;
    // With SLOW_STATEMENT_MS (passed on to the gateway), its slowest statements, for diagnosis.
    const slow = gateway
      .output()
      .split('\n')
      .filter((line) => line.includes('[gateway] slow '))
      .sort((a, b) => Number(/ (\d+) ms/.exec(b)?.[1] ?? 0) - Number(/ (\d+) ms/.exec(a)?.[1] ?? 0))
      .slice(0, 20)
      .map((line) => line.slice(0, 400));
    return [
      `${CONTACTS.toLocaleString('en')}-contact tenant written to and read in a loop, and a ${(csv.bytes / 1024 / 1024).toFixed(0)} MB import into it ` +
        `(${job.status}, ${job.rows_done.toLocaleString('en')} of ${csv.rows.toLocaleString('en')} rows in ${loadSeconds.toFixed(0)} s, ` +
        `${Math.round(job.rows_done / loadSeconds).toLocaleString('en')} rows/s), embedded PGlite:`,
      table(rows),
      `probes' p99 ${fmt(p99)}: goal < ${PROBE_GOAL_MS} ms ${p99 < PROBE_GOAL_MS ? 'met' : 'NOT met'}`,
      `gateway event-loop delay over its ${loop.sinceSeconds} s: p50 ${fmt(loop.p50Ms)}, p99 ${fmt(loop.p99Ms)}, max ${fmt(loop.maxMs)}`,
      table(heavyRows),
      ...(slow.length > 0 ? ['slowest statements in the gateway:', ...slow] : []),
    ].join('\n');
  } finally {
    await gateway?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(`\n## One tenant's weight on the others (${new Date().toISOString()})\n${await stallBench()}`);
}
