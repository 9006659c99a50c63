#!/usr/bin/env node
// Every test suite, with one closing line `N passed, N failed` for CI, and before it the wall time of
// each phase: typecheck, lint, format, Jest (shared, shell, remotes) and the production build side by
// side; the gateway's suites on a PostgreSQL server and on embedded PGlite (scripts/gateway-suites.mjs
// says which run on which), two files at a time, the files that start gateway processes one after
// another in one of the two slots, then the timed ones alone; e2e in Chromium against the started
// system, three files at a time.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleTests, needsTsx } from '../gateway/test/bundle.mjs';
import { enginesOf, runsAlone, startsProcesses } from './gateway-suites.mjs';
import { startPostgres } from './pg-server.mjs';
import { runPool } from './test-pool.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tmp = path.join(root, '.tmp');
fs.mkdirSync(tmp, { recursive: true });
/**
 * Gateway test files side by side (most of a file's time is spent waiting: timers, sockets, a database
 * thread). One slot runs the suites that start processes one after another; the others share the rest.
 */
const GATEWAY_CONCURRENCY = 3;
/**
 * e2e files side by side, each with its system and Chromium. Their time is mostly spent waiting (pages,
 * timers): two at a time kept about one core busy on two (bench/README.md, "CI, `npm test`").
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
function run(label, cmd, args, { env = {}, together = false } = {}) {
  if (!together) console.log(`\n=== ${label}`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: root,
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
async function gatewaySuites(serverUrl) {
  const cwd = path.join(root, 'gateway');
  const templates = path.join(tmp, 'db-templates');
  fs.rmSync(templates, { recursive: true, force: true });
  const side = [];
  const processes = [];
  const alone = [];
  const sources = new Map(
    testFiles('gateway', 'src').map((file) => [file, fs.readFileSync(path.join(cwd, file), 'utf8')]),
  );
  const bundles = await bundleTests(
    [...sources].filter(([, source]) => !needsTsx(source)).map(([file]) => file),
    path.join(cwd, 'dist', 'tests'),
  );
  for (const [file, source] of sources) {
    for (const engine of enginesOf(file, source)) {
      const job = {
        label: `${engine === 'postgres' ? 'PostgreSQL' : 'PGlite'} ${file}`,
        cwd,
        file,
        bundle: bundles.get(file),
        size: source.length,
        env: { TEST_TEMPLATE_DIR: templates, TEST_DATABASE_URL: engine === 'postgres' ? serverUrl : undefined },
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
  const gatewayTmp = path.join(tmp, 'gateway');
  fs.rmSync(gatewayTmp, { recursive: true, force: true });
  try {
    processes.sort((a, b) => b.size - a.size);
    const together = await runPool(side, {
      concurrency: GATEWAY_CONCURRENCY,
      tmp: gatewayTmp,
      timeoutMs: FILE_TIMEOUT_MS,
      firstSlot: processes,
    });
    count('gateway', together);
    const apart = await runPool(alone, { concurrency: 1, tmp: gatewayTmp, timeoutMs: FILE_TIMEOUT_MS });
    count('gateway processes', apart);
    return new Map([...together.seconds, ...apart.seconds]);
  } finally {
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

let gatewaySeconds = new Map();
/** The phases in order; `node scripts/test.mjs gateway e2e` runs only those named. */
const PHASES = [
  {
    // Side by side: lint and format use one core each, typecheck, Jest's workers and the build the rest.
    name: 'checks',
    label: 'typecheck, lint, format, Jest, build',
    run: () =>
      Promise.all([
        gate('typecheck', 'pnpm', ['run', 'typecheck'], { together: true }),
        gate('lint', 'pnpm', ['run', 'lint'], { together: true }),
        gate('format', 'pnpm', ['run', 'format:check'], { together: true }),
        jest(),
        gate('production build of the shell and all remotes', 'pnpm', ['run', 'build'], { together: true }),
      ]),
  },
  {
    name: 'gateway',
    label: 'gateway (PostgreSQL, PGlite)',
    async run() {
      console.log('\n=== gateway on PostgreSQL and embedded PGlite');
      let pg;
      try {
        pg = startPostgres(Number(process.env.TEST_PG_PORT ?? 5439));
        gatewaySeconds = await gatewaySuites(pg.url);
      } catch (error) {
        console.error(error);
        problems.push('gateway suites could not run');
        failed += 1;
      } finally {
        pg?.stop();
      }
    },
  },
  { name: 'e2e', label: 'e2e', run: e2eSuites },
];
const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !PHASES.some((p) => p.name === name));
if (unknown.length) {
  console.error(`unknown phase ${unknown.join(', ')}: ${PHASES.map((p) => p.name).join(', ')}`);
  process.exit(2);
}
for (const p of PHASES) if (chosen.length === 0 || chosen.includes(p.name)) await phase(p.label, p.run);

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
