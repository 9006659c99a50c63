// Which engines each gateway test file runs on, and which run alone (README "Tests"). Paths are
// relative to gateway/; a pattern is a path, a folder followed by `/**` (everything under it), or
// `**/` followed by a name's ending.

/**
 * true: every gateway suite runs on both engines, embedded PGlite and a PostgreSQL server. false:
 * only the suites of BOTH_ENGINES and ENGINE_BRANCHES do, and every other suite runs once, on
 * PostgreSQL (product areas do not ask which engine they run on, db/ holds the difference).
 * TEST_ALL_ENGINES=1 runs every suite on both for one run.
 */
export const PRODUCT_SUITES_ON_BOTH_ENGINES = false;

/** The storage contract and exactly once under a kill: always on both engines. */
export const BOTH_ENGINES = [
  'src/db/**',
  'src/campaigns/sender/send-kill.test.ts',
  'src/campaigns/sender/chaos.test.ts',
  '**/*.engines.test.ts',
];

/**
 * Product suites over work whose steps follow db/storage.ts's capabilities (readRows, writeRows, the
 * commit pace, a database owned by the process, a batch commit's gathering): the product never asks
 * which engine runs, but on embedded PGlite those steps take other branches (bounded hops, smaller
 * batches, takeover at start), so these run on both engines. Only the files among them that open a
 * database (`opensDatabase`); the others run once.
 */
export const ENGINE_BRANCHES = [
  'src/audience/**',
  'src/campaigns/audience-snapshot.test.ts',
  'src/campaigns/sender/**',
  'src/jobs/**',
];

/**
 * Suites whose assertions are on durations: the order work runs in by the clock (pglite-turns.ts's
 * grace and hold times), an unknown e-mail's login against a known one's, a group commit's wait.
 */
export const TIMED = [
  'src/db/pglite-turns.test.ts',
  'src/auth/login.test.ts',
  'src/campaigns/sender/group-commit.test.ts',
];

/** A TIMED suite runs alone, after the others: its timings do not share the machine with another suite's. */
export function runsAlone(file) {
  return TIMED.some((p) => matches(p, file));
}

/**
 * A suite that starts gateway processes (test/processes.ts), to kill them or run two on one server,
 * runs in a slot of its own, one after another, beside the other suites: never two of them at once
 * (their processes, ports and kill moments), while other suites may share the machine.
 */
export function startsProcesses(source) {
  return /\bstartGatewayProcess\b/.test(source);
}

/** Whether a suite opens a database: a test gateway, a database handle, a scratch database or a gateway process. */
export function opensDatabase(source) {
  return /\b(startGateway|openDatabase|scratchDatabase|startGatewayProcess)\b/.test(source);
}

/** Whether `file` (relative to gateway/) matches `pattern`. */
export function matches(pattern, file) {
  if (pattern.startsWith('**/')) return file.endsWith(pattern.slice(pattern.lastIndexOf('*') + 1));
  if (pattern.endsWith('/**')) return file.startsWith(pattern.slice(0, -2));
  return file === pattern;
}

/** The engines `file` (its text: `source`) runs on: PostgreSQL always, embedded PGlite as the lists above say. */
export function enginesOf(
  file,
  source,
  bothForAll = PRODUCT_SUITES_ON_BOTH_ENGINES || process.env.TEST_ALL_ENGINES === '1',
) {
  const both =
    bothForAll ||
    BOTH_ENGINES.some((p) => matches(p, file)) ||
    (ENGINE_BRANCHES.some((p) => matches(p, file)) && opensDatabase(source));
  return both ? ['pglite', 'postgres'] : ['postgres'];
}
