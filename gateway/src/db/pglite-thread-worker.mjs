/**
 * The thread that holds embedded PGlite (pglite-thread.ts is the gateway's side; the messages are
 * typed in pglite-thread-protocol.ts). It runs what the gateway's thread asks, in the order asked:
 * statements, transactions (held open until the gateway ends them) and LISTEN.
 *
 * Plain JavaScript: Node 20 does not hand the gateway's TypeScript loader (`--import tsx`) to worker
 * threads, and registering it here would cost this thread about 25 MB.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { logSlowStatements, openPglite } from './pglite-store.mjs';

/** @type {{ options: { dir: string; sharedBuffers?: string; slowStatementMs?: number } }} */
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

/** Begins a transaction: answered from inside it, once PGlite has begun it (or with its error). */
function begin(pglite, id) {
  let begun = false;
  pglite
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
    default:
      throw new Error(`unknown request ${String(request.op)}`);
  }
}

const pglite = await openPglite(options.dir, { sharedBuffers: options.sharedBuffers });
if (options.slowStatementMs) logSlowStatements(pglite, options.slowStatementMs);

port.on('message', (request) => {
  if (request.op === 'begin') return begin(pglite, request.id);
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
  answer(pglite, request).then(
    (result) => port.postMessage({ id: request.id, ok: true, result }),
    (error) => port.postMessage({ id: request.id, ok: false, error: errorFields(error) }),
  );
});
port.postMessage({ ready: true });
