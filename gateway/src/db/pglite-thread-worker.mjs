/**
 * The thread that holds embedded PGlite (pglite-thread.ts is the gateway's side; the messages are
 * typed in pglite-thread-protocol.ts). It runs what the gateway's thread asks, in the order asked:
 * statements, transactions (held open until the gateway ends them) and LISTEN.
 *
 * Plain JavaScript: Node 20 does not hand the gateway's TypeScript loader (`--import tsx`) to worker
 * threads, and registering it here would cost this thread memory (bench/README.md, "PGlite's thread
 * loads no TypeScript").
 */
import { parentPort, workerData } from 'node:worker_threads';
import { logSlowStatements, openPglite, saveSnapshot } from './pglite-store.mjs';

/** @type {{ options: { dir: string; sharedBuffers?: string; snapshot?: string; slowStatementMs?: number; foregroundRun: number; foregroundGraceMs: number; foregroundHoldMs: number } }} */
const { options } = workerData;
if (!parentPort) throw new Error('pglite-thread-worker runs as a worker thread');
const port = parentPort;

/** An error as it crosses threads: message, name and PostgreSQL's fields (code, constraint, ...). */
function errorFields(/** @type {unknown} */ error) {
  if (!(error instanceof Error)) return { message: String(error), name: 'Error' };
  /** @type {Record<string, string | number>} */
  const fields = { message: error.message, name: error.name };
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === 'string' || typeof value === 'number') fields[key] = value;
  }
  return fields;
}

/** "Keep this type as text" parsers for the types the gateway's thread named (Drizzle keeps dates as text). */
function queryOptions(/** @type {{ rowMode?: 'array' | 'object'; textTypes: number[]; blob?: Blob }} */ request) {
  /** @type {Record<number, (value: string) => string>} */
  const parsers = {};
  for (const type of request.textTypes) parsers[type] = (value) => value;
  return { rowMode: request.rowMode, parsers, ...(request.blob ? { blob: request.blob } : {}) };
}

/** Open transactions by the id of their 'begin': the gateway's thread runs their statements, then ends them. */
const transactions = new Map();
/** The 'end' request waiting for each transaction's outcome. */
const endings = new Map();
const subscriptions = new Map();
/** Rejects a transaction's callback so that PGlite rolls it back; not an error to report. */
const ROLLBACK = Symbol('rollback');

function on(pglite, tx) {
  if (tx === undefined) return pglite;
  const open = transactions.get(tx);
  if (!open) throw new Error('the transaction has ended');
  return open.tx;
}

function ended(tx, error) {
  transactions.delete(tx);
  const id = endings.get(tx);
  endings.delete(tx);
  if (id === undefined) return;
  port.postMessage(error === null ? { id, ok: true } : { id, ok: false, error: errorFields(error) });
}

/**
 * Begins a transaction: answered from inside it, once PGlite has begun it (or with its error).
 * Resolves when the transaction has ended.
 */
function begin(pglite, id) {
  let begun = false;
  return pglite
    .transaction(
      (tx) =>
        new Promise((resolve, reject) => {
          begun = true;
          transactions.set(id, { tx, end: (commit) => (commit ? resolve() : reject(ROLLBACK)) });
          port.postMessage({ id, ok: true, result: id });
        }),
    )
    .then(
      () => ended(id, null),
      (error) => {
        if (begun) ended(id, error === ROLLBACK ? null : error);
        else port.postMessage({ id, ok: false, error: errorFields(error) });
      },
    );
}

/** Runs a request; resolves to its result, or to `undefined` for those answered elsewhere. */
async function answer(pglite, request) {
  switch (request.op) {
    case 'query':
      if (request.first && request.tx === undefined) {
        const { first } = request;
        return pglite.transaction(async (tx) => {
          await tx.query(first.sql, first.params);
          return tx.query(request.sql, request.params, queryOptions(request));
        });
      }
      return on(pglite, request.tx).query(request.sql, request.params, queryOptions(request));
    case 'exec':
      return on(pglite, request.tx).exec(request.sql);
    case 'listen': {
      const stop = await pglite.listen(request.channel, (payload) => port.postMessage({ notify: request.id, payload }));
      subscriptions.set(request.id, stop);
      return request.id;
    }
    case 'unlisten': {
      const stop = subscriptions.get(request.sub);
      subscriptions.delete(request.sub);
      if (stop) await stop();
      return undefined;
    }
    case 'close':
      await pglite.close();
      return undefined;
    case 'snapshot':
      await saveSnapshot(pglite, request.file);
      return undefined;
    default:
      throw new Error(`unknown request ${String(request.op)}`);
  }
}

const pglite = await openPglite(options.dir, { sharedBuffers: options.sharedBuffers, snapshot: options.snapshot });
if (options.slowStatementMs) logSlowStatements(pglite, options.slowStatementMs);

/**
 * The order in which statements get the database (PGlite runs one at a time): requests of the
 * console's ("foreground") before background work's (campaign sends, imports), up to
 * `foregroundRun` of them in a row while background work waits; after a foreground statement,
 * background work waits `foregroundGraceMs` for that request's next one; and while the console's
 * requests run (the gateway's thread says so: 'hold'), background work starts at most one item in
 * `foregroundHoldMs` (db/pglite-turns.ts says why, and holds the numbers). Chosen here, where the
 * database runs, the moment the running statement ends: chosen on the gateway's thread, each
 * statement would wait for a turn of that thread's busy event loop to learn that the previous one had
 * ended, and PGlite would do nothing meanwhile.
 *
 * A lane item runs a statement outside any transaction, or a whole transaction (from its 'begin' to
 * its end: the statements inside it and its 'end' run at once, as they come). As with the turns, a
 * statement made outside a transaction by code inside one waits for that transaction, which waits
 * for it: code inside a transaction makes its statements on it.
 */
const lanes = { foreground: [], background: [] };
/** A statement or transaction runs. */
let busy = false;
/** A choice is scheduled (setImmediate), or background work waits out the grace (`graceTimer`). */
let scheduled = false;
let graceTimer = null;
/** Foreground items run since background work last had its turn (while it waited). */
let run = 0;
let foregroundEndedAt = -Infinity;
/** The console's requests run ('hold'), and since when background work waits for them. */
let held = false;
let heldSince = 0;

/** Chooses once the messages that came meanwhile are in their lanes (a macrotask after them). */
function schedule() {
  if (busy || scheduled || graceTimer) return;
  scheduled = true;
  setImmediate(choose);
}

function choose() {
  scheduled = false;
  graceTimer = null;
  const { foreground, background } = lanes;
  const now = performance.now();
  const grace = options.foregroundGraceMs - (now - foregroundEndedAt);
  const hold = held ? options.foregroundHoldMs - (now - heldSince) : 0;
  const wait = Math.max(grace, hold);
  if (foreground.length === 0 && background.length > 0 && wait > 0) {
    graceTimer = setTimeout(choose, wait);
    return;
  }
  const useBackground = background.length > 0 && (foreground.length === 0 || run >= options.foregroundRun);
  const start = useBackground ? background.shift() : foreground.shift();
  if (!start) return;
  run = useBackground || background.length === 0 ? 0 : run + 1;
  // Background work had its turn: while the hold lasts, its next waits another foregroundHoldMs.
  if (useBackground) heldSince = now;
  busy = true;
  start().finally(() => {
    busy = false;
    if (!useBackground) foregroundEndedAt = performance.now();
    schedule();
  });
}

function enqueue(lane, start) {
  lanes[lane].push(start);
  if (lane === 'foreground' && graceTimer) {
    clearTimeout(graceTimer);
    graceTimer = null;
  }
  schedule();
}

/** Runs a request and posts its answer; resolves when it is answered. */
function answered(request) {
  return answer(pglite, request).then(
    (result) => port.postMessage({ id: request.id, ok: true, result }),
    (error) => port.postMessage({ id: request.id, ok: false, error: errorFields(error) }),
  );
}

/** The console's requests run, or no longer do: a hold's end lets background work go at once. */
function hold(on) {
  held = on;
  heldSince = performance.now();
  if (!on && graceTimer) {
    clearTimeout(graceTimer);
    graceTimer = null;
    schedule();
  }
}

port.on('message', (request) => {
  if (request.op === 'hold') return hold(request.held);
  const lane = request.background ? 'background' : 'foreground';
  if (request.op === 'begin') return enqueue(lane, () => begin(pglite, request.id));
  if (request.op === 'end') {
    const open = transactions.get(request.tx);
    if (!open)
      return port.postMessage({
        id: request.id,
        ok: false,
        error: errorFields(new Error('the transaction has ended')),
      });
    endings.set(request.tx, request.id);
    return open.end(request.commit);
  }
  // Statements outside a transaction take their turn. Inside an open transaction (which holds the
  // database), LISTEN, UNLISTEN, close and snapshot: as they come, as PGlite itself runs them.
  if ((request.op === 'query' || request.op === 'exec') && request.tx === undefined) {
    return enqueue(lane, () => answered(request));
  }
  answered(request);
});
port.postMessage({ ready: true });
