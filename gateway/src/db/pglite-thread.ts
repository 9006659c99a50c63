/**
 * Embedded PGlite on a thread of its own (PGLITE_THREAD=worker, the default).
 *
 * Why: PGlite is PostgreSQL compiled to WebAssembly, and every statement runs synchronously on the
 * thread that holds it. On the gateway's thread, a campaign send spends a large part of that thread in
 * the database (the group commit, the claims, the grid's reads: bench/README.md, "PGlite on a thread of
 * its own"), and everything else (building messages, SMTP, the console's requests) waits meanwhile. Here
 * the database gets the machine's second core and the gateway's thread only sends requests and reads
 * answers.
 *
 * The client below offers the part of PGlite's API the gateway uses (Drizzle, pg-boss, LISTEN), with
 * PGlite's own semantics: one statement at a
 * time, a transaction holds the database until it ends (statements outside it wait), notifications
 * arrive before the answer of the statement that committed them.
 *
 * What is not carried across: query parsers other than "keep this type as text" (Drizzle's, for
 * dates), serializers and notices. They throw, rather than quietly doing something else.
 */
import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results, Transaction } from '@electric-sql/pglite';
import { fromFields, type Reply, type Request, type ThreadOptions } from './pglite-thread-protocol';
import { FOREGROUND_GRACE_MS, FOREGROUND_HOLD_MS, FOREGROUND_RUN, isBackground } from './pglite-turns';
import { settingsStatement, statementSettings } from './statement-settings';
import type { EmbeddedPglite } from './embedded-pglite';

export type { EmbeddedPglite } from './embedded-pglite';

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };
/** A request without its id (added when sent). */
type Ask = Request extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/** The types a query's parsers keep as text; any other parser cannot cross threads. */
function textTypes(options: QueryOptions | undefined): number[] {
  if (options?.serializers || options?.onNotice || options?.paramTypes) {
    throw new Error('PGlite on its thread: serializers, notices and parameter types are not supported');
  }
  return Object.entries(options?.parsers ?? {}).map(([type, parse]) => {
    if (parse('text') !== 'text') throw new Error(`PGlite on its thread: a parser for type ${type} must keep the text`);
    return Number(type);
  });
}

/** `sql` tagged templates as PGlite offers them: the parts joined by numbered parameters. */
function templateText(strings: TemplateStringsArray): string {
  return strings.reduce((text, part, i) => (i === 0 ? part : `${text}$${i}${part}`), '');
}

export class PGliteThread implements EmbeddedPglite {
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<number, (payload: string) => void>();
  private nextId = 1;
  private failure: Error | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: Reply) => this.receive(reply));
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => this.fail(new Error(`the database thread stopped (exit code ${code})`)));
    worker.unref();
  }

  /**
   * Starts the thread and opens PGlite in it (db/pglite-store.ts `openPglite`, with its template). The
   * thread chooses which statement runs next as pglite-turns.ts says, with its numbers unless given.
   */
  static async open(given: ThreadOptions): Promise<PGliteThread> {
    const options = {
      foregroundRun: FOREGROUND_RUN,
      foregroundGraceMs: FOREGROUND_GRACE_MS,
      foregroundHoldMs: FOREGROUND_HOLD_MS,
      ...given,
    };
    const worker = new Worker(new URL('./pglite-thread-worker.mjs', import.meta.url), { workerData: { options } });
    await new Promise<void>((resolve, reject) => {
      const onMessage = (reply: Reply) => {
        if (!('ready' in reply)) return;
        worker.off('error', reject);
        worker.off('exit', onExit);
        worker.off('message', onMessage);
        resolve();
      };
      const onExit = (code: number) =>
        reject(new Error(`the database thread stopped while opening (exit code ${code})`));
      worker.on('message', onMessage);
      worker.once('error', reject);
      worker.once('exit', onExit);
    });
    return new PGliteThread(worker);
  }

  private receive(reply: Reply): void {
    if ('ready' in reply) return;
    if ('notify' in reply) {
      this.listeners.get(reply.notify)?.(reply.payload);
      return;
    }
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if (reply.ok) pending.resolve(reply.result);
    else pending.reject(fromFields(reply.error));
  }

  /**
   * The thread died (a crash of PGlite's WebAssembly, after which PGlite in this thread would be unusable
   * too) or was ended by close(). Every statement fails from now on, and so does every one still
   * waiting for an answer: as on PGlite in this thread, whose statements after close() are refused,
   * a caller (a job's poll at shutdown) is never left waiting for good.
   */
  private fail(error: Error): void {
    if (!this.failure) {
      console.error(`[gateway] the database thread failed: ${error.message}`);
      this.failure = error;
    }
    for (const pending of this.pending.values()) pending.reject(this.failure);
    this.pending.clear();
  }

  /**
   * Whether the console's requests are running (lib/admission.ts, which tells only the changes):
   * while they are, background work waits, except for one statement in FOREGROUND_HOLD_MS
   * (pglite-turns.ts).
   */
  holdBackground(held: boolean): void {
    if (this.failure) return;
    this.worker.postMessage({ op: 'hold', held } satisfies Request);
  }

  /** Sends a request; the thread keeps the process alive only while answers are awaited. */
  private ask<T>(request: Ask): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ ...request, id });
    });
  }

  private runQuery<T>(tx: number | undefined, sql: string, params?: unknown[], options?: QueryOptions) {
    // A statement made inside withStatementSettings, outside a transaction: the thread runs it with its
    // settings in a transaction of its own, in one request.
    const settings = tx === undefined ? statementSettings() : undefined;
    return this.ask<Results<T>>({
      op: 'query',
      tx,
      background: isBackground(),
      sql,
      params,
      rowMode: options?.rowMode,
      textTypes: textTypes(options),
      blob: options?.blob,
      ...(settings ? { first: settingsStatement(settings) } : {}),
    });
  }

  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.runQuery<T>(undefined, sql, params, options);
  }

  exec(sql: string, options?: QueryOptions): Promise<Results[]> {
    textTypes(options);
    return this.ask<Results[]>({ op: 'exec', sql, background: isBackground() });
  }

  /**
   * PGlite's transaction: BEGIN, the callback's statements (on `tx`), then COMMIT, or ROLLBACK when
   * the callback throws. The database runs nothing else until it ends.
   */
  async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    const id = await this.ask<number>({ op: 'begin', background: isBackground() });
    let closed = false;
    const tx: Transaction = {
      query: <R>(sql: string, params?: unknown[], options?: QueryOptions) => this.runQuery<R>(id, sql, params, options),
      sql: <R>(strings: TemplateStringsArray, ...params: unknown[]) =>
        this.runQuery<R>(id, templateText(strings), params),
      exec: (sql: string, options?: QueryOptions) => {
        textTypes(options);
        return this.ask<Results[]>({ op: 'exec', tx: id, sql });
      },
      rollback: async () => {
        closed = true;
        await this.ask({ op: 'end', tx: id, commit: false });
      },
      listen: () => Promise.reject(new Error('PGlite on its thread: LISTEN inside a transaction is not supported')),
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      if (!closed) {
        closed = true;
        await this.ask({ op: 'end', tx: id, commit: false }).catch(() => undefined);
      }
      throw error;
    }
    if (!closed) {
      closed = true;
      await this.ask({ op: 'end', tx: id, commit: true });
    }
    return result;
  }

  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    const sub = await this.ask<number>({ op: 'listen', channel });
    this.listeners.set(sub, callback);
    return async () => {
      this.listeners.delete(sub);
      await this.ask({ op: 'unlisten', sub });
    };
  }

  /** Writes the whole cluster to `file` (pglite-store.mjs `saveSnapshot`). */
  saveSnapshot(file: string): Promise<void> {
    return this.ask<void>({ op: 'snapshot', file });
  }

  /** Closes PGlite (its files are consistent on disk) and ends the thread. */
  async close(): Promise<void> {
    if (!this.failure) await this.ask({ op: 'close' });
    this.failure ??= new Error('the database is closed');
    // The thread's end keeps nothing alive here (the thread was unreferenced once its last answer came,
    // and ref() then did not help): without this timer a process whose close is the last thing it
    // awaits ended before terminate() settled, its close never finished.
    const keep = setInterval(() => undefined, 1_000);
    try {
      await this.worker.terminate();
    } finally {
      clearInterval(keep);
    }
    this.fail(this.failure);
  }
}
