import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';

const MEMORY = 'memory://';

/** The installed PGlite version (its package.json is not exported, so find it beside the entry). */
function pgliteVersion() {
  let dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (dir !== path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (typeof pkg === 'object' && pkg !== null && 'name' in pkg && pkg.name === '@electric-sql/pglite') {
        return ('version' in pkg ? String(pkg.version) : 'unknown').replace(/[^\w.-]/g, '_');
      }
    }
    dir = path.dirname(dir);
  }
  return 'unknown';
}

/** An empty, freshly initialised cluster of this PGlite version, cached per machine. */
function templateFile() {
  return path.join(os.tmpdir(), 'console-gateway-pglite', `empty-cluster-${pgliteVersion()}.tar`);
}

/** @param {string} dir */
function isInitialised(dir) {
  return dir !== MEMORY && fs.existsSync(path.join(dir, 'PG_VERSION'));
}

/**
 * Open PGlite in `dir` (or `memory://`).
 *
 * Creating a new cluster runs initdb inside WebAssembly, which takes seconds; loading a copy of an
 * empty cluster is several times quicker (bench/README.md, "PGlite's template cluster"). So the first new cluster on a machine is saved (before any
 * migration: it holds nothing of ours) as a template in the temp directory, and later new
 * clusters (fresh data directories, every test file) start from it. PGLITE_TEMPLATE=0 turns this off.
 * `sharedBuffers`: PostgreSQL's shared_buffers (PGLITE_SHARED_BUFFERS). `snapshot`: a file written by
 * `saveSnapshot`; a new cluster starts as a copy of it (its schema and rows) instead of empty. A
 * cluster already in `dir` opens as it is.
 *
 * Plain JavaScript (with pglite-store.d.mts for TypeScript): the database thread (pglite-thread-worker.mjs)
 * loads it without a TypeScript loader, which would cost that thread memory (bench/README.md, "PGlite's
 * thread loads no TypeScript").
 *
 * @param {string} dir
 * @param {{ sharedBuffers?: string; useTemplate?: boolean; snapshot?: string }} [options]
 * @returns {Promise<PGlite>}
 */
export async function openPglite(dir, options = {}) {
  const useTemplate = options.useTemplate ?? process.env.PGLITE_TEMPLATE !== '0';
  // PostgreSQL's shared_buffers, inside PGlite's WebAssembly memory, which never shrinks: its 128MB
  // default fills up during a campaign send and holds the gateway's memory there (bench/README.md,
  // "PGlite's shared buffers"). Pages past the buffers are read from the operating system's file cache.
  const tuning = options.sharedBuffers
    ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.sharedBuffers}`] }
    : {};
  if (isInitialised(dir)) return PGlite.create(dir, tuning);
  const dataDir = dir === MEMORY ? undefined : dir;
  if (options.snapshot) {
    if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
    return PGlite.create({ dataDir, loadDataDir: new Blob([fs.readFileSync(options.snapshot)]), ...tuning });
  }
  if (!useTemplate) return PGlite.create(dir, tuning);
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  const template = templateFile();
  if (fs.existsSync(template)) {
    try {
      return await PGlite.create({ dataDir, loadDataDir: new Blob([fs.readFileSync(template)]), ...tuning });
    } catch {
      // A damaged template: fall back to initdb, and replace it below.
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const client = await PGlite.create(dir, tuning);
  try {
    const dump = await client.dumpDataDir('none');
    fs.mkdirSync(path.dirname(template), { recursive: true });
    const tmp = `${template}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(tmp, template);
  } catch {
    // The template only saves time; never fail the start because of it.
  }
  return client;
}

/**
 * Writes the whole cluster of `client` to `file` (a tar, as `openPglite`'s `snapshot` reads it), after
 * a checkpoint, so that a copy opens without replaying the write-ahead log. The file appears whole
 * or not at all.
 *
 * @param {PGlite} client
 * @param {string} file
 */
export async function saveSnapshot(client, file) {
  await client.exec('checkpoint');
  const dump = await client.dumpDataDir('none');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
  fs.renameSync(tmp, file);
}

/**
 * Logs every statement (and every transaction, as a whole) of `client` that takes longer than
 * `thresholdMs`, with the start of its SQL: PGlite runs in the gateway's thread, so such a statement
 * held up every request for that long (SLOW_STATEMENT_MS, off by default; for diagnosis).
 *
 * @param {PGlite} client
 * @param {number} thresholdMs
 */
export function logSlowStatements(client, thresholdMs) {
  /** @type {(target: object, name: string, what: (args: unknown[]) => string) => void} */
  const timed = (target, name, what) => {
    const original = Reflect.get(target, name);
    if (typeof original !== 'function') return;
    const run = original.bind(target);
    Reflect.set(target, name, async (...args) => {
      const started = performance.now();
      try {
        return await run(...args);
      } finally {
        const ms = performance.now() - started;
        if (ms > thresholdMs) console.warn(`[gateway] slow ${name} ${Math.round(ms)} ms: ${what(args)}`);
      }
    });
  };
  /** @param {unknown[]} args */
  const sqlOf = (args) => String(args[0]).replace(/\s+/g, ' ').trim().slice(0, 300);
  timed(client, 'query', sqlOf);
  timed(client, 'exec', sqlOf);
  const transaction = Reflect.get(client, 'transaction');
  if (typeof transaction !== 'function') return;
  const begin = transaction.bind(client);
  Reflect.set(client, 'transaction', async (/** @type {(tx: object) => Promise<unknown>} */ callback) => {
    /** @type {string[]} */
    const statements = [];
    const started = performance.now();
    try {
      return await begin(async (/** @type {object} */ tx) => {
        const query = Reflect.get(tx, 'query');
        if (typeof query === 'function') {
          const run = query.bind(tx);
          Reflect.set(tx, 'query', (/** @type {unknown[]} */ ...args) => {
            statements.push(sqlOf(args).slice(0, 200));
            return run(...args);
          });
        }
        return callback(tx);
      });
    } finally {
      const ms = performance.now() - started;
      if (ms > thresholdMs) console.warn(`[gateway] slow transaction ${Math.round(ms)} ms: ${statements.join(' | ')}`);
    }
  });
}
