import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema';

/**
 * The database as every query sees it: the same Drizzle API over PGlite or node-postgres.
 *
 * PGlite is a single connection. It queues by itself: every `query`/`exec` and every whole
 * `transaction()` runs under PGlite's own mutex, so concurrent requests are serialised and a
 * transaction never interleaves with other statements. The one rule that follows: inside
 * `db.transaction(async (tx) => ...)` use only `tx`, never `db` (that would wait for the
 * transaction that is waiting for it).
 */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
