/**
 * The storage interface: every operation whose way of working differs between embedded PGlite (one
 * connection in this process, one statement at a time, no autovacuum) and a PostgreSQL server, named
 * for what it does. Nothing outside db/ asks which engine runs (the lint refuses it); what each engine
 * is for and what happens past its size is in docs/storage.md, and db/storage-contract.test.ts holds
 * both engines to the same observable behaviour.
 *
 * - `readInIndexOrder`, `readThroughIndexes`: a statement planned along an index whatever the planner's
 *   statistics say (PGlite has no autovacuum: after a large import nothing has analyzed the table).
 * - `yieldToRequests`, `asBackgroundWork`, `requestsRunningSignal`: background work that gives way to
 *   the console's requests.
 * - `storageCapabilities`: how much one statement or commit of background work may do, whether the
 *   database belongs to this process alone, and how many contacts a tenant may hold.
 * - `storageUpkeep`: the engine's own upkeep, as a recurring job for the composition root to schedule.
 */
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { fromPglite } from 'pg-boss';
import type { Database } from './database';
import { embeddedClient, isPglite } from './engine';
import { PGliteThread } from './pglite-thread';
import { coalescedSignal } from '../lib/coalesced-signal';
import { FOREGROUND_GRACE_MS, inBackground } from './pglite-turns';
import { databaseUpkeep, type DatabaseUpkeep } from './pglite-upkeep';
import { withStatementSettings } from './statement-settings';

export type { DatabaseUpkeep } from './pglite-upkeep';

/** The pace of batched commits of background work (an import's batches): sizes adapt to commit times. */
export interface CommitPace {
  /** A batch that commits quicker than this doubles; one that takes twice as long halves. */
  targetMs: number;
  /** The first batch holds at most this many rows (and the configured size). */
  startRows: number;
  /** Batches never shrink below this many rows (or the configured size, if smaller). */
  leastRows: number;
  /** Batches never grow past this many rows (whatever they may grow to otherwise). */
  mostRows: number;
}

/** What a database can take, as product code needs to know it. */
export interface StorageCapabilities {
  /**
   * The database belongs to this process alone: no other process can be running a job of it, so work
   * left running by a previous process can be taken over at start.
   */
  ownedByProcess: boolean;
  /** Contacts one tenant may hold (Infinity: no limit). Past it, creating contacts is refused. */
  contactsPerTenant: number;
  /**
   * Rows one statement of work that grows with a tenant (a walk, a slice) reads at most; the work takes
   * the smaller of this and its own size (Infinity: whatever the work chooses).
   */
  readRows: number;
  /** Rows one statement of such work changes at most (the same way). */
  writeRows: number;
  /** Batched commits (imports). */
  commitPace: CommitPace;
}

/** Contacts per tenant on embedded PGlite unless configured (PGLITE_CONTACT_LIMIT; docs/storage.md). */
export const EMBEDDED_CONTACTS_PER_TENANT = 100_000;

/**
 * Embedded PGlite: every statement holds the one connection, so background work reads and writes in
 * small statements, and an import's commit aims at a tenth of a second.
 */
const EMBEDDED: Omit<StorageCapabilities, 'contactsPerTenant'> = {
  ownedByProcess: true,
  readRows: 5_000,
  writeRows: 500,
  commitPace: { targetMs: 100, startRows: 250, leastRows: 100, mostRows: 500 },
};

/** A PostgreSQL server: statements run side by side on their own connections. */
const SERVER: StorageCapabilities = {
  ownedByProcess: false,
  contactsPerTenant: Infinity,
  readRows: Infinity,
  writeRows: Infinity,
  commitPace: { targetMs: 1000, startRows: Infinity, leastRows: Infinity, mostRows: Infinity },
};

const configured = new WeakMap<Database, StorageCapabilities>();

/** openDatabase's part: the capabilities of a database just opened, with the configured contact limit. */
export function setCapabilities(db: Database, options: { contactsPerTenant?: number }): void {
  if (!isPglite(db)) return;
  const limit = options.contactsPerTenant ?? EMBEDDED_CONTACTS_PER_TENANT;
  configured.set(db, { ...EMBEDDED, contactsPerTenant: limit > 0 ? limit : Infinity });
}

/** What the database can take (see StorageCapabilities). */
export function storageCapabilities(db: Database): StorageCapabilities {
  const set = configured.get(db);
  if (set) return set;
  return isPglite(db) ? { ...EMBEDDED, contactsPerTenant: EMBEDDED_CONTACTS_PER_TENANT } : SERVER;
}

/** Planner settings that make a statement walk an index in its order (`readInIndexOrder`). */
const INDEX_ORDER = [
  ['enable_seqscan', 'off'],
  ['enable_bitmapscan', 'off'],
  ['enable_sort', 'off'],
] as const;

/** Planner settings that keep a statement on indexes (`readThroughIndexes`). */
const INDEXES_ONLY = [['enable_seqscan', 'off']] as const;

/**
 * Runs `statement` so that it walks an index in its order (for a keyset window or a LIMIT read in an
 * index's order), whatever the planner's statistics say. On PGlite, which has no autovacuum, each of
 * its statements runs with sequential scans, bitmap scans and sorts turned off for that statement
 * (statement-settings.ts: in a transaction of its own, so nothing else runs with these settings;
 * several statements of one `statement` are several transactions, each reading the latest data). On a
 * PostgreSQL server it runs as is, or, with `workMem`, in a transaction with that much sort memory.
 */
export async function readInIndexOrder<T>(
  db: Database,
  statement: (q: Database) => Promise<T>,
  options: { workMem?: string } = {},
): Promise<T> {
  // Awaited inside: a Drizzle query runs when awaited, and its statement must be made in the settings.
  if (isPglite(db)) return withStatementSettings(INDEX_ORDER, async () => await statement(db));
  const { workMem } = options;
  if (!workMem) return statement(db);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('work_mem', ${workMem}, true)`);
    return statement(tx);
  });
}

/**
 * Runs `statement` through indexes (no sequential scan of a table that holds every tenant's rows), for
 * statements bounded by what their indexes find and then sorted: on PGlite with sequential scans off
 * for each of its statements; on a PostgreSQL server as is.
 */
export async function readThroughIndexes<T>(db: Database, statement: (q: Database) => Promise<T>): Promise<T> {
  if (!isPglite(db)) return statement(db);
  return withStatementSettings(INDEXES_ONLY, async () => await statement(db));
}

const waiting: (() => void)[] = [];
let pumping = false;

/** Lets one waiter go per turn of the event loop (see yieldToRequests). */
function pump(): void {
  waiting.shift()?.();
  if (waiting.length > 0) setImmediate(pump);
  else pumping = false;
}

/**
 * Awaited by background work between two bounded steps: lets the event loop answer whatever came
 * meanwhile (requests, timers) before the next statement. One waiter per turn, in order: two walks
 * each awaiting a plain setImmediate would be let go in the same turn and run their statements back to
 * back; here every turn runs at most one bounded step of background work, then polls for I/O. The same
 * on either engine (on a server it costs a turn of the loop and nothing else).
 */
export function yieldToRequests(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!pumping) {
      pumping = true;
      setImmediate(pump);
    }
  });
}

/**
 * Runs `fn` as background work (a job): on PGlite its statements wait behind the console's requests
 * (pglite-turns.ts); on a server it runs as is (the AsyncLocalStorage that marks background work costs
 * every promise a hook, and a server runs statements side by side anyway).
 */
export function asBackgroundWork<T>(db: Database, fn: () => T): T {
  return isPglite(db) ? inBackground(fn) : fn();
}

/**
 * Where the database needs to know whether the console's requests are running (lib/admission.ts tells
 * only the changes): PGlite on its own thread holds background work back meanwhile (one statement of it
 * in FOREGROUND_HOLD_MS), and lets it go once no request has run for FOREGROUND_GRACE_MS, the wait that
 * background work owes a request's statement anyway (lib/coalesced-signal.ts: one message per stretch
 * of requests, not two per request). Undefined where nothing needs it: a server runs statements side by
 * side, and PGlite in the gateway's thread takes turns statement by statement.
 */
export function requestsRunningSignal(db: Database): ((running: boolean) => void) | undefined {
  const client = embeddedClient(db);
  if (!(client instanceof PGliteThread)) return undefined;
  return coalescedSignal((running) => client.holdBackground(running), FOREGROUND_GRACE_MS);
}

/** The engine's upkeep as a recurring job, where it needs one (PGlite: statistics, pglite-upkeep.ts); null on a server. */
export function storageUpkeep(db: Database): DatabaseUpkeep | null {
  return databaseUpkeep(db);
}

/**
 * The connection of the job queue (pg-boss): PGlite's own client through pg-boss's adapter (the one
 * connection of this process), or null where pg-boss opens its own connections to the server.
 */
export function jobQueueConnection(db: Database): { db: ReturnType<typeof fromPglite>; backend: 'pglite' } | null {
  const client = embeddedClient(db);
  // pg-boss's adapter uses query, exec and listen, which PGliteThread offers as PGlite does.
  return client ? { db: fromPglite(client as PGlite), backend: 'pglite' } : null;
}
