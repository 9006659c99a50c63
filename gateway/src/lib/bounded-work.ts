/**
 * Bounded work on embedded PGlite. PGlite is one connection that runs one statement at a time: a
 * statement that reads a million rows holds up every request of every tenant until it ends. With
 * PGlite in the gateway's thread (PGLITE_THREAD=main; db/pglite-thread.ts) it holds up /health and the
 * event loop too, and statements run back to back through promises never let the loop answer in
 * between. So on PGlite, work
 * whose size grows with a tenant is done as a series of statements, each bounded in rows (a keyset
 * window with LIMIT), with a turn of the event loop between them (`nextTurn`).
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/index';
import { withStatementSettings } from '../db/statement-settings';
import { isPglite } from './db-helpers';

const waiting: (() => void)[] = [];
let pumping = false;

/** Lets one waiter go per turn of the event loop (see nextTurn). */
function pump(): void {
  waiting.shift()?.();
  if (waiting.length > 0) setImmediate(pump);
  else pumping = false;
}

/**
 * Lets the event loop answer whatever came meanwhile (requests, timers) before the next statement.
 * One waiter per turn, in order: two walks each awaiting a plain setImmediate would be let go in the
 * same turn and run their statements back to back, and ten of them would hold the loop ten times as
 * long; here every turn runs at most one bounded statement of background work, then polls for I/O.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!pumping) {
      pumping = true;
      setImmediate(pump);
    }
  });
}

/** Planner settings that make a statement walk an index in its order (`inIndexOrder`). */
const INDEX_ORDER = [
  ['enable_seqscan', 'off'],
  ['enable_bitmapscan', 'off'],
  ['enable_sort', 'off'],
] as const;

/** Planner settings that keep a statement on indexes (`throughIndexes`). */
const INDEXES_ONLY = [['enable_seqscan', 'off']] as const;

/**
 * Runs `statement` so that it walks an index in its order, whatever the planner's statistics say.
 * PGlite has no autovacuum, so after a large import nothing has analyzed the table: the planner takes
 * a tenant of 300,000 contacts for a few rows, and would sort them all for every LIMIT (a keyset hop
 * of 1,000 rows became a sort of the tenant: minutes for the anchors of one sort). On PGlite each of
 * its statements runs with sequential scans, bitmap scans and sorts turned off for that statement
 * (db/statement-settings.ts: in a transaction of its own, so nothing else runs with these settings;
 * several statements of one `statement` are several transactions, each reading the latest data). On a
 * PostgreSQL server it runs as is, or, with `workMem`, in a transaction with that much sort memory (the
 * server's work, off the gateway's thread).
 */
export async function inIndexOrder<T>(
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
 * Runs `statement` through indexes (no sequential scan of the table, which holds every tenant's
 * rows), for statements bounded by what their indexes find and then sorted: on PGlite with sequential
 * scans off for each of its statements, as `inIndexOrder`; on a PostgreSQL server as is.
 */
export async function throughIndexes<T>(db: Database, statement: (q: Database) => Promise<T>): Promise<T> {
  if (!isPglite(db)) return statement(db);
  return withStatementSettings(INDEXES_ONLY, async () => await statement(db));
}
