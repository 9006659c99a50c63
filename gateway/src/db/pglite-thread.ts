/**
 * Embedded PGlite on a thread of its own (PGLITE_THREAD=worker, the default).
 *
 * Why: PGlite is PostgreSQL compiled to WebAssembly, and every statement runs synchronously on the
 * thread that holds it. On the gateway's thread, a campaign send spent half of that thread in the
 * database (bench/campaign-send.ts: the group commit, the claims, the grid's reads), and everything
 * else (building messages, SMTP, the console's requests) waited meanwhile. Here the database gets the
 * machine's second core and the gateway's thread only sends requests and reads answers.
 *
 * The client below offers the part of PGlite's API the gateway uses (Drizzle, pg-boss, LISTEN and
 * the synchronous commit of db/pglite-commit.ts), with PGlite's own semantics: one statement at a
 * time, a transaction holds the database until it ends (statements outside it wait), notifications
 * arrive before the answer of the statement that committed them.
 *
 * What is not carried across: query parsers other than "keep this type as text" (Drizzle's, for
 * dates), serializers and notices. They throw, rather than quietly doing something else.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { PGlite, QueryOptions, Results, Transaction } from '@electric-sql/pglite';
import {
  fromFields,
  type ErrorFields,
  type Reply,
  type Request,
  type SyncReply,
  type ThreadOptions,
} from './pglite-thread-protocol';

/** What the gateway needs of embedded PGlite, in its thread (PGlite itself) or on its own (PGliteThread). */
export type EmbeddedPglite = Pick<
  PGlite,
  'query' | 'exec' | 'transaction' | 'listen' | 'execProtocolRawSync' | 'close'
>;

/** How long the gateway's thread waits for a synchronous commit before it gives the thread up. */
const SYNC_WAIT_MS = 30_000;

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

  private constructor(
    private readonly worker: Worker,
    private readonly syncPort: MessagePort,
    private readonly syncFlag: Int32Array,
  ) {
    worker.on('message', (reply: Reply) => this.receive(reply));
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => this.fail(new Error(`the database thread stopped (exit code ${code})`)));
    worker.unref();
  }

  /** Starts the thread and opens PGlite in it (db/pglite-store.ts `openPglite`, with its template). */
  static async open(options: ThreadOptions): Promise<PGliteThread> {
    const { port1, port2 } = new MessageChannel();
    const syncFlag = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(new URL('./pglite-thread-worker.mjs', import.meta.url), {
      workerData: { options, syncPort: port2, syncFlag },
      transferList: [port2],
    });
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
    return new PGliteThread(worker, port1, syncFlag);
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
    return this.ask<Results<T>>({
      op: 'query',
      tx,
      sql,
      params,
      rowMode: options?.rowMode,
      textTypes: textTypes(options),
      blob: options?.blob,
    });
  }

  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.runQuery<T>(undefined, sql, params, options);
  }

  exec(sql: string, options?: QueryOptions): Promise<Results[]> {
    textTypes(options);
    return this.ask<Results[]>({ op: 'exec', sql });
  }

  /**
   * PGlite's transaction: BEGIN, the callback's statements (on `tx`), then COMMIT, or ROLLBACK when
   * the callback throws. The database runs nothing else until it ends.
   */
  async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    const id = await this.ask<number>({ op: 'begin' });
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

  /**
   * Runs raw protocol messages and returns PGlite's answer, synchronously: this thread waits (Atomics)
   * until the database's thread has run them. For db/pglite-commit.ts, whose caller's next statement
   * must run in the same synchronous frame as the commit.
   */
  execProtocolRawSync(message: Uint8Array): Uint8Array {
    if (this.failure) throw this.failure;
    Atomics.store(this.syncFlag, 0, 0);
    this.syncPort.postMessage(message);
    if (Atomics.wait(this.syncFlag, 0, 0, SYNC_WAIT_MS) === 'timed-out') {
      const error = new Error(`the database thread did not answer a synchronous call within ${SYNC_WAIT_MS} ms`);
      this.fail(error);
      void this.worker.terminate();
      throw error;
    }
    const reply = receiveMessageOnPort(this.syncPort)?.message as SyncReply | undefined;
    if (!reply) throw new Error('the database thread answered nothing');
    if (!reply.ok) throw fromFields(reply.error as ErrorFields);
    return reply.bytes;
  }

  /** Closes PGlite (its files are consistent on disk) and ends the thread. */
  async close(): Promise<void> {
    if (!this.failure) await this.ask({ op: 'close' });
    this.failure ??= new Error('the database is closed');
    this.syncPort.close();
    await this.worker.terminate();
    this.fail(this.failure);
  }
}
