#!/usr/bin/env node
// Every test suite, with one closing line `N passed, N failed` for CI, and before it the wall time of
// each phase: typecheck, lint, format, Jest (shared, shell, remotes) and the production build side by
// side; the gateway's suites on a PostgreSQL server and on embedded PGlite (scripts/gateway-suites.mjs
// says which run on which), four files at a time, the files that start gateway processes one after
// another in two of the slots (one per engine), then the timed ones alone; e2e in Chromium against the started system,
// three files at a time.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleTests, needsTsx, OFF_LOOP_WORKER_ENTRY } from '../gateway/test/bundle.mjs';
import { enginesOf, runsAlone, startsProcesses } from './gateway-suites.mjs';
import { startPostgres } from './pg-server.mjs';
import { runPool } from './test-pool.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tmp = path.join(root, '.tmp');
fs.mkdirSync(tmp, { recursive: true });
/**
 * Gateway test files side by side (most of a file's time is spent waiting: timers, sockets, a database
 * thread). Two slots run the suites that start processes, one after another per engine; the others
 * share the rest.
 */
const GATEWAY_CONCURRENCY = 4;
/**
 * e2e files side by side, each with its system and Chromium. Their time is mostly spent waiting (pages,
 * timers). Run beside the gateway's suites instead of after them, the two phases took as long in all
 * (bench/README.md, "CI, `npm test`, fourth stop").
 */
const E2E_CONCURRENCY = 3;
// A hang guard for each test file: the axe suite visits every page and dialog, about 80 s on a quiet
// 2-core machine and more than 300 s on a loaded one.
const FILE_TIMEOUT_MS = 900_000;

let passed = 0;
let failed = 0;
const problems = [];
/** [phase, wall seconds, CPU seconds or null] in the order they ended. */
const phases = [];

/**
 * CPU seconds (user and system) of the processes this one started and that have ended, with theirs
 * (Linux: /proc/self/stat cutime and cstime, in ticks of 1/100 s); null elsewhere. The PostgreSQL
 * server runs detached (pg_ctl) and is not counted.
 */
function childrenCpu() {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

/** Runs `work` as a phase: its wall time (and its processes' CPU time) goes in the closing table. */
async function phase(label, work) {
  const started = performance.now();
  const cpu = childrenCpu();
  try {
    return await work();
  } finally {
    const after = childrenCpu();
    phases.push([label, (performance.now() - started) / 1000, cpu === null || after === null ? null : after - cpu]);
  }
}

/**
 * Runs a command; resolves to whether it succeeded. Its output goes straight through, or with
 * `together`, whole when it ends (commands run side by side do not interleave).
 */
function run(label, cmd, args, { env = {}, together = false, cwd = root } = {}) {
  if (!together) console.log(`\n=== ${label}`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd,
      stdio: together ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, ...env },
    });
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    child.on('close', (code) => {
      if (together) process.stdout.write(`\n=== ${label}\n${output}`);
      if (code !== 0) problems.push(`${label} (exit ${code})`);
      resolve(code === 0);
    });
  });
}

/** A gate that is not a test file (typecheck, lint, build) counts as one test. */
async function gate(label, cmd, args, options) {
  if (await run(label, cmd, args, options)) passed += 1;
  else failed += 1;
}

/** Node 20's test runner does not expand globs: list the files (relative to `dir`'s package). */
function testFiles(pkg, dir) {
  return fs
    .readdirSync(path.join(root, pkg, dir), { recursive: true })
    .map((f) => String(f).split(path.sep).join('/'))
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => `${dir}/${f}`);
}

function count(label, result) {
  passed += result.passed;
  failed += result.failed;
  if (result.failures.length) problems.push(`${label}: ${result.failures.join(', ')}`);
}

/**
 * The gateway's suites (gateway/src/<area>/…/*.test.ts) on the engines gateway-suites.mjs gives each,
 * the largest files first so that the last to end is a short one. Every file starts from a migrated
 * and seeded template database made once per engine (gateway/test/db-template.ts), and runs from its
 * bundle in plain node (gateway/test/bundle.mjs; a file that imports by a computed name under tsx).
 */
async function gatewayJobs(serverUrl) {
  const cwd = path.join(root, 'gateway');
  const side = [];
  const processes = [];
  const alone = [];
  const sources = new Map(
    testFiles('gateway', 'src').map((file) => [file, fs.readFileSync(path.join(cwd, file), 'utf8')]),
  );
  const bundleDir = path.join(cwd, 'dist', 'tests');
  const bundles = await bundleTests(
    [...sources].filter(([, source]) => !needsTsx(source)).map(([file]) => file),
    bundleDir,
  );
  const worker = path.join(bundleDir, `${OFF_LOOP_WORKER_ENTRY}.mjs`);
  for (const [file, source] of sources) {
    for (const engine of enginesOf(file, source)) {
      const job = {
        label: `${engine === 'postgres' ? 'PostgreSQL' : 'PGlite'} ${file}`,
        cwd,
        file,
        bundle: bundles.get(file),
        size: source.length,
        env: {
          TEST_TEMPLATE_DIR: templates,
          TEST_DATABASE_URL: engine === 'postgres' ? serverUrl : undefined,
          // The pool's threads of a bundled file run the bundled worker.
          TEST_OFF_LOOP_WORKER: bundles.has(file) ? worker : undefined,
        },
      };
      if (runsAlone(file)) alone.push(job);
      else if (startsProcesses(source)) processes.push(job);
      else side.push(job);
    }
  }
  // The benchmarks' own helpers (bench/*.test.ts: no database, no system) run beside them.
  for (const file of fs.readdirSync(path.join(root, 'bench')).filter((f) => f.endsWith('.test.ts'))) {
    side.push({ label: `bench ${file}`, cwd: path.join(root, 'bench'), file, size: 0, env: {} });
  }
  side.sort((a, b) => b.size - a.size);
  processes.sort((a, b) => b.size - a.size);
  // One chain per engine: never two process suites of one engine at once (their processes, ports and
  // kill moments on one database server or data directory kind), while each engine's chain is about
  // half of the whole.
  const chains = [
    processes.filter((job) => job.env.TEST_DATABASE_URL !== undefined),
    processes.filter((job) => job.env.TEST_DATABASE_URL === undefined),
  ].filter((chain) => chain.length > 0);
  return { side, chains, alone };
}

/** Where the seeded template databases of a run are made (gateway/test/db-template.ts), and the files' reports. */
const templates = path.join(tmp, 'db-templates');
const gatewayTmp = path.join(tmp, 'gateway');

/**
 * The gateway's suites but the timed ones: GATEWAY_CONCURRENCY files at a time, two slots running the
 * suites that start processes one after another, a chain per engine (bench/README.md, "CI, `npm test`").
 */
async function gatewaySuites(jobs) {
  console.log('\n=== gateway on PostgreSQL and embedded PGlite');
  const together = await runPool(jobs.side, {
    concurrency: GATEWAY_CONCURRENCY,
    tmp: gatewayTmp,
    timeoutMs: FILE_TIMEOUT_MS,
    chains: jobs.chains,
  });
  count('gateway', together);
  for (const [label, seconds] of together.seconds) gatewaySeconds.set(label, seconds);
}

/** The timed suites, one at a time with nothing beside them. */
async function timedSuites(jobs) {
  console.log('\n=== gateway: timed suites, alone');
  const apart = await runPool(jobs.alone, { concurrency: 1, tmp: gatewayTmp, timeoutMs: FILE_TIMEOUT_MS });
  count('gateway timed', apart);
  for (const [label, seconds] of apart.seconds) gatewaySeconds.set(label, seconds);
}

/**
 * Runs `work` with a PostgreSQL server and the gateway's jobs (their bundles made, the template
 * directory fresh); the server stops after.
 */
async function withGatewayJobs(work) {
  let pg;
  fs.rmSync(templates, { recursive: true, force: true });
  fs.rmSync(gatewayTmp, { recursive: true, force: true });
  try {
    pg = startPostgres(Number(process.env.TEST_PG_PORT ?? 5439));
    await work(await gatewayJobs(pg.url));
  } catch (error) {
    console.error(error);
    problems.push('gateway suites could not run');
    failed += 1;
  } finally {
    pg?.stop();
    fs.rmSync(templates, { recursive: true, force: true });
  }
}

/**
 * e2e's suites, E2E_CONCURRENCY files at a time: each starts a system of its own (e2e/lib/system.ts),
 * on ports of its own (E2E_PORT_BASE, 10 apart).
 */
async function e2eSuites() {
  console.log('\n=== e2e in Chromium');
  const cwd = path.join(root, 'e2e');
  const base = Number(process.env.E2E_PORT_BASE ?? 3100);
  const files = testFiles('e2e', 'tests')
    .map((file) => ({ label: `e2e ${file}`, cwd, file, size: fs.statSync(path.join(cwd, file)).size }))
    .sort((a, b) => b.size - a.size);
  const result = await runPool(files, {
    concurrency: E2E_CONCURRENCY,
    tmp: path.join(tmp, 'e2e'),
    timeoutMs: FILE_TIMEOUT_MS,
    slotEnv: (slot) => ({ E2E_PORT_BASE: String(base + 10 * slot) }),
  });
  count('e2e', result);
}

/**
 * Jest (shared, shell, remotes): its counts from its JSON report. One worker a core, not Jest's default
 * of one fewer: it runs beside the other checks, and when they end its workers have the machine.
 */
async function jest() {
  const jestJson = path.join(tmp, 'jest.json');
  fs.rmSync(jestJson, { force: true });
  const args = [
    'exec',
    'jest',
    '--ci',
    `--maxWorkers=${os.availableParallelism()}`,
    '--json',
    `--outputFile=${jestJson}`,
  ];
  await run('jest: shared, shell, remotes', 'pnpm', args, { together: true });
  if (fs.existsSync(jestJson)) {
    const j = JSON.parse(fs.readFileSync(jestJson, 'utf8'));
    passed += j.numPassedTests;
    failed += j.numFailedTests + (j.numRuntimeErrorTestSuites ?? 0);
  } else failed += 1;
}

function minutes(seconds) {
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

const started = performance.now();
// scripts/test.sh passes when it started (ms since the epoch), before installing.
const installMs = process.env.TEST_STARTED_AT ? Date.now() - Number(process.env.TEST_STARTED_AT) : null;
if (installMs !== null && installMs >= 0) phases.push(['install (tools, pnpm install)', installMs / 1000, null]);

const gatewaySeconds = new Map();
/**
 * The phases; `node scripts/test.mjs gateway e2e` runs only those named. The gateway's suites and e2e,
 * both chosen, run side by side, and the timed suites after them.
 */
const PHASES = ['checks', 'gateway', 'e2e'];
const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !PHASES.includes(name));
if (unknown.length) {
  console.error(`unknown phase ${unknown.join(', ')}: ${PHASES.join(', ')}`);
  process.exit(2);
}
const runs = (name) => chosen.length === 0 || chosen.includes(name);

if (runs('checks')) {
  // Side by side: lint and format use one core each, typecheck, Jest's workers and the build the rest.
  await phase('typecheck, lint, format, Jest, build', () =>
    Promise.all([
      gate('typecheck', 'pnpm', ['run', 'typecheck'], { together: true }),
      gate('lint', 'pnpm', ['run', 'lint'], { together: true }),
      gate('format', 'pnpm', ['run', 'format:check'], { together: true }),
      jest(),
      gate('production build of the shell and all remotes', 'pnpm', ['run', 'build'], { together: true }),
    ]),
  );
}
if (runs('gateway') || runs('e2e')) {
  // One gateway build for every process the suites launch (gateway/launch.mjs).
  if (await run('gateway production bundle', process.execPath, ['build.mjs'], { cwd: path.join(root, 'gateway') }))
    process.env.GATEWAY_BUILT = '1';
}
if (runs('gateway')) {
  await withGatewayJobs(async (jobs) => {
    await phase('gateway (PostgreSQL, PGlite)', () => gatewaySuites(jobs));
    await phase('gateway timed suites, alone', () => timedSuites(jobs));
  });
}
if (runs('e2e')) await phase('e2e', () => e2eSuites());

const slowest = [...gatewaySeconds].sort((a, b) => b[1] - a[1]).slice(0, 10);
if (slowest.length) {
  console.log('\nSlowest gateway files:');
  for (const [label, s] of slowest) console.log(`  ${s.toFixed(1).padStart(6)} s  ${label}`);
}
const total = (performance.now() - started) / 1000 + (installMs ?? 0) / 1000;
console.log(
  `\n${'Phase'.padEnd(38)}   Wall     CPU   (${os.availableParallelism()} cores, 15-minute load ${os.loadavg()[2].toFixed(1)} at the end)`,
);
for (const [label, wall, cpu] of [...phases, ['total', total, null]]) {
  console.log(`${label.padEnd(38)} ${minutes(wall).padStart(6)} ${cpu === null ? '' : minutes(cpu).padStart(7)}`);
}
if (problems.length) console.log(`\nFailed steps: ${problems.join('; ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 && problems.length === 0 ? 0 : 1);
