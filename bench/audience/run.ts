// pnpm --filter bench run bench:audience (root: npm run bench:audience)
//
// The audience at a million contacts, on a PostgreSQL server and on embedded PGlite: generate the
// tenant, measure the endpoints' latency through an in-process gateway, import a CSV through the API
// and COPY the same file raw. Prints markdown.
//
// Environment: BENCH_CONTACTS (default 1000000), BENCH_PGLITE_CONTACTS (default BENCH_CONTACTS),
// BENCH_IMPORT_ROWS (default BENCH_CONTACTS), BENCH_BACKENDS (default "postgres,pglite"),
// BENCH_DATABASE_URL (a server's admin URL; else a throw-away server on BENCH_PG_PORT, default 5459),
// BENCH_EXPLAIN=1 (EXPLAIN slow requests on PGlite too; on PostgreSQL they always are).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServerDatabase, openBenchDb, type BenchDb, type DbTarget } from './db.ts';
import { Api, startBenchGateway } from './gateway.ts';
import { generateAudience, verifyCounters, type GeneratedAudience } from './generate.ts';
import { importBench, IMPORT_GOAL_RATIO, IMPORT_GOAL_ROWS_PER_S, type ImportResult } from './import.ts';
import { writeImportCsv } from './import-csv.ts';
import { latencyBench, latencyTable, type LatencyResult } from './latency.ts';
import { BENCH_PG_SETTINGS, startBenchPostgres, type BenchPostgres } from './postgres.ts';
import { int, machineLine, mdTable, verdict, type Cell } from './report.ts';

function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  const n = raw ? Number(raw.replace(/_/g, '')) : fallback;
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return n;
}

type Kind = DbTarget['kind'];

interface BackendRun {
  kind: Kind;
  label: string;
  contacts: number;
  generated?: GeneratedAudience;
  counters?: string;
  latency?: LatencyResult;
  imported?: ImportResult;
  settings?: string;
  error?: string;
}

const contacts = envInt('BENCH_CONTACTS', 1_000_000);
const sizes: Record<Kind, number> = { postgres: contacts, pglite: envInt('BENCH_PGLITE_CONTACTS', contacts) };
const importRows = envInt('BENCH_IMPORT_ROWS', contacts);
const kinds = (process.env.BENCH_BACKENDS ?? 'postgres,pglite')
  .split(',')
  .map((k) => k.trim())
  .filter((k): k is Kind => k === 'postgres' || k === 'pglite');
const log = (line: string) => console.log(line);
const seconds = (t0: number) => ((performance.now() - t0) / 1000).toFixed(0);
const s1 = (n: number) => n.toFixed(1);

async function serverSettings(db: BenchDb): Promise<string> {
  const names = ['shared_buffers', 'work_mem', 'effective_cache_size', 'max_wal_size', 'fsync', 'synchronous_commit', 'random_page_cost']; // prettier-ignore
  const rows = await db.query<{ name: string; setting: string; unit: string | null }>(
    'select name, setting, unit from pg_settings where name = any($1::text[]) order by name',
    [names],
  );
  return rows.map((r) => `${r.name}=${r.setting}${r.unit ?? ''}`).join(', ');
}

async function runBackend(kind: Kind, csvFile: string, csv: Awaited<ReturnType<typeof writeImportCsv>>) {
  const n = sizes[kind];
  const run: BackendRun = { kind, label: kind === 'postgres' ? 'PostgreSQL' : 'PGlite', contacts: n };
  let server: BenchPostgres | null = null;
  let drop: (() => Promise<void>) | null = null;
  let dir: string | null = null;
  let db: BenchDb | null = null;
  const t0 = performance.now();
  try {
    let target: DbTarget;
    if (kind === 'postgres') {
      let adminUrl = process.env.BENCH_DATABASE_URL;
      if (!adminUrl) {
        server = startBenchPostgres(envInt('BENCH_PG_PORT', 5459));
        adminUrl = server.url;
      }
      const created = await createServerDatabase(adminUrl, 'audience_bench');
      drop = created.drop;
      target = { kind, url: created.url };
    } else {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audience-bench-pglite-'));
      target = { kind, dir };
    }
    db = await openBenchDb(target);
    run.label = db.label;
    run.settings = await serverSettings(db);
    console.log(`\n## ${db.label}: ${int(n)} contacts\n\n${run.settings}\n`);

    log('Generating…');
    const g = await generateAudience(db, { contacts: n, log });
    run.generated = g;
    run.counters = await verifyCounters(db, g.tenantId);
    log(`  ${run.counters}`);

    const gw = await startBenchGateway(db);
    try {
      log('Latency…');
      const api = await Api.signIn(gw.url, g.ownerEmail, g.password);
      run.latency = await latencyBench(db, api, g, {
        explain: kind === 'postgres' || process.env.BENCH_EXPLAIN === '1',
        randomPages: kind === 'postgres' ? 3 : 1,
        samples: kind === 'postgres' ? 20 : 10,
        log,
      });
      console.log(`\n${latencyTable([{ label: db.label, result: run.latency, goals: kind === 'postgres' }])}\n`);
      console.log(`${run.latency.detail}\n`);

      log(`Import of ${int(csv.rows)} rows…`);
      run.imported = await importBench(db, gw.url, csvFile, csv, log);
      const r = run.imported;
      log(
        `  import ${int(r.importRate)} rows/s end to end (${s1(r.totalSeconds)} s: upload ${s1(r.uploadSeconds)} s), ` +
          `raw COPY ${int(r.copyRate)} rows/s (${s1(r.copySeconds)} s), ratio ${r.ratio.toFixed(2)}; ` +
          (r.floor
            ? `database floor ${int(r.floor.rate)} rows/s (${int(r.floor.rows)} rows in ${s1(r.floor.seconds)} s); `
            : '') +
          `created ${int(r.job.created)}, updated ${int(r.job.updated)}, skipped ${int(r.job.skipped)}, failed ${int(r.job.failed)}`,
      );
    } finally {
      await gw.close();
    }
  } catch (error) {
    run.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
    console.log(`\n${run.label} run failed: ${run.error}\n`);
  } finally {
    await db?.close().catch(() => undefined);
    await drop?.().catch(() => undefined);
    server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    log(`${run.label}: ${seconds(t0)} s in all`);
  }
  return run;
}

function generatorTable(runs: BackendRun[]): string {
  const rows: Cell[][] = [
    [
      'backend',
      'contacts',
      'memberships',
      'load + index builds',
      'of which index builds',
      'VACUUM ANALYZE',
      'counters',
    ],
  ];
  for (const r of runs) {
    const g = r.generated;
    if (!g) continue;
    const ok = r.counters ? 'match count(*)' : '**differ**';
    rows.push([r.label, int(g.contacts), int(g.memberships), `${s1(g.insertSeconds)} s`, `${s1(g.indexSeconds)} s`, `${s1(g.analyzeSeconds)} s`, ok]); // prettier-ignore
  }
  return mdTable(rows);
}

function importTable(runs: BackendRun[]): string {
  const rows: Cell[][] = [
    ['backend', 'rows (bad)', 'import rows/s (s)', 'processing only rows/s', 'raw COPY rows/s (s)', 'import / COPY', 'database floor rows/s (s)', 'import / floor', 'reading alone rows/s (s)', 'created / failed', `> ${int(IMPORT_GOAL_ROWS_PER_S)} rows/s`, `>= ${IMPORT_GOAL_RATIO} of COPY`], // prettier-ignore
  ];
  for (const r of runs) {
    const i = r.imported;
    if (!i) continue;
    const judged = r.kind === 'postgres';
    rows.push([
      r.label,
      `${int(i.rows)} (${int(i.badRows)})`,
      `${int(i.importRate)} (${s1(i.totalSeconds)})`,
      int(i.processRate),
      `${int(i.copyRate)} (${s1(i.copySeconds)})`,
      i.ratio.toFixed(2),
      i.floor ? `${int(i.floor.rate)} (${s1(i.floor.seconds)})` : '—',
      i.floor ? (i.importRate / i.floor.rate).toFixed(2) : '—',
      `${int(i.reading.rate)} (${s1(i.reading.seconds)})`,
      `${int(i.job.created)} / ${int(i.job.failed)}`,
      judged ? verdict(i.importRate > IMPORT_GOAL_ROWS_PER_S) : '— (goal for PostgreSQL)',
      judged ? verdict(i.ratio >= IMPORT_GOAL_RATIO) : '—',
    ]);
  }
  return mdTable(rows);
}

console.log(`# Audience at ${int(contacts)} contacts\n\n${machineLine()}`);
if (!process.env.BENCH_DATABASE_URL && kinds.includes('postgres')) {
  console.log(`Throw-away PostgreSQL server with ${Object.entries(BENCH_PG_SETTINGS).map(([k, v]) => `${k}=${v}`).join(', ')}`); // prettier-ignore
}
const t0 = performance.now();
const csvDir = fs.mkdtempSync(path.join(os.tmpdir(), 'audience-bench-csv-'));
const csvFile = path.join(csvDir, 'import.csv');
const csv = await writeImportCsv(csvFile, importRows);
log(`Import file: ${int(csv.rows)} rows (${int(csv.bad)} bad), ${(csv.bytes / 2 ** 20).toFixed(1)} MiB, written in ${s1(csv.seconds)} s`); // prettier-ignore
const runs: BackendRun[] = [];
try {
  for (const kind of kinds) runs.push(await runBackend(kind, csvFile, csv));
} finally {
  fs.rmSync(csvDir, { recursive: true, force: true });
}

const done = runs.filter((r) => r.latency !== undefined);
console.log(`\n## Summary (${machineLine()}, ${seconds(t0)} s in all)\n`);
console.log(`Generator:\n\n${generatorTable(runs)}\n`);
console.log(
  `Latency (${done.map((r) => `${r.label} at ${int(r.contacts)}`).join(', ')}):\n\n` +
    `${latencyTable(done.flatMap((r) => (r.latency ? [{ label: r.kind === 'postgres' ? 'PostgreSQL' : 'PGlite', result: r.latency, goals: r.kind === 'postgres' }] : [])))}\n`, // prettier-ignore
);
console.log(`CSV import:\n\n${importTable(runs)}\n`);
for (const r of runs) {
  if (r.latency?.explains.length) console.log(`\n## EXPLAIN of slow requests (${r.label})\n\n${r.latency.explains.join('\n\n')}\n`); // prettier-ignore
  if (r.error) console.log(`\n${r.label} failed: ${r.error}\n`);
}
if (runs.some((r) => r.error)) process.exitCode = 1;
