/**
 * Which engine a database runs on: for db/ alone. Everything outside db/ uses the operations of
 * db/storage.ts, which are named for what they do (docs/storage.md); the lint refuses this module and
 * these checks elsewhere.
 */
import { PGlite } from '@electric-sql/pglite';
import type { Database } from './database';
import { PGliteThread, type EmbeddedPglite } from './pglite-thread';

/** The embedded PGlite client under the database, or null on a PostgreSQL server. */
export function embeddedClient(db: Database): EmbeddedPglite | null {
  const client: unknown = '$client' in db ? db.$client : null;
  return client instanceof PGlite || client instanceof PGliteThread ? client : null;
}

/** Whether the database is embedded PGlite: one connection in this process, every statement in turn. */
export function isPglite(db: Database): boolean {
  return embeddedClient(db) !== null;
}

/** The PGlite client under the database (throws on a PostgreSQL server). */
export function pgliteClient(db: Database): EmbeddedPglite {
  const client = embeddedClient(db);
  if (!client) throw new Error('not an embedded PGlite database');
  return client;
}
