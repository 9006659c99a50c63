#!/usr/bin/env node
// Every test suite, in order, with one closing line `N passed, N failed` for CI:
// typecheck, lint, Jest (shared, shell, remotes), gateway on PGlite, gateway on PostgreSQL,
// production build, e2e in Chromium against the started system.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgres } from './pg-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tmp = path.join(root, '.tmp');
fs.mkdirSync(tmp, { recursive: true });
let passed = 0;
let failed = 0;
const problems = [];

function run(label, cmd, args, env = {}) {
  console.log(`\n=== ${label}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) problems.push(`${label} (exit ${r.status})`);
  return r.status === 0;
}

/** A gate that is not a test file (typecheck, lint, build) counts as one test. */
function gate(label, cmd, args, env) {
  if (run(label, cmd, args, env)) passed += 1;
  else failed += 1;
}

/** Node 20's test runner does not expand globs: list the files. */
function testFiles(filter) {
  // The gateway's tests sit beside the code of their area (gateway/src/<area>/…/*.test.ts); e2e's in tests/.
  const dir = filter === './gateway' ? 'src' : 'tests';
  return fs
    .readdirSync(path.join(root, filter, dir), { recursive: true })
    .map((f) => String(f).split(path.sep).join('/'))
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => `${dir}/${f}`);
}

function nodeTests(label, filter, env = {}) {
  const tap = path.join(tmp, `${label.replace(/\W+/g, '-')}.tap`);
  const ok = run(
    label,
    'pnpm',
    [
      '--filter',
      filter,
      'exec',
      'node',
      '--import',
      'tsx',
      '--test',
      '--test-concurrency=1',
      // A hang guard for each test file (node:test runs every file as one test under this limit), far
      // above the slowest file, the axe suite, on a loaded machine (bench/README.md, "The test runners' waits").
      '--test-timeout=900000',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      ...testFiles(filter),
    ],
    env,
  );
  const text = fs.existsSync(tap) ? fs.readFileSync(tap, 'utf8') : '';
  const p = Number(/^# pass (\d+)/m.exec(text)?.[1] ?? 0);
  const f = Number(/^# fail (\d+)/m.exec(text)?.[1] ?? 0);
  passed += p;
  failed += f + (!ok && f === 0 ? 1 : 0);
}

gate('typecheck', 'pnpm', ['run', 'typecheck']);
gate('lint', 'pnpm', ['run', 'lint']);
gate('format', 'pnpm', ['run', 'format:check']);

const jestJson = path.join(tmp, 'jest.json');
run('jest: shared, shell, remotes', 'pnpm', ['exec', 'jest', '--ci', '--json', `--outputFile=${jestJson}`]);
if (fs.existsSync(jestJson)) {
  const j = JSON.parse(fs.readFileSync(jestJson, 'utf8'));
  passed += j.numPassedTests;
  failed += j.numFailedTests + (j.numRuntimeErrorTestSuites ?? 0);
} else failed += 1;

nodeTests('gateway on embedded PGlite', './gateway');
let pg;
try {
  pg = startPostgres(Number(process.env.TEST_PG_PORT ?? 5439));
  nodeTests('gateway on PostgreSQL', './gateway', { TEST_DATABASE_URL: pg.url });
} catch (error) {
  console.error(error);
  problems.push('PostgreSQL server could not start');
  failed += 1;
} finally {
  pg?.stop();
}

gate('production build of the shell and all remotes', 'pnpm', ['run', 'build']);
nodeTests('e2e in Chromium', './e2e');

if (problems.length) console.log(`\nFailed steps: ${problems.join('; ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 && problems.length === 0 ? 0 : 1);
