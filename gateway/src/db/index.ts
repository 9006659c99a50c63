import path from 'node:path';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { sql } from 'drizzle-orm';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { GATEWAY_ROOT, type PgliteThreadMode } from '../config';
import { pgliteSubscribe, postgresSubscribe, registerNotifications, stopListening } from './notifications';
import { logSlowStatements, openPglite, saveSnapshot } from './pglite-store.mjs';
import { PGliteThread } from './pglite-thread';
import { takeTurns } from './pglite-turns';
import { setCapabilities } from './storage';
import { honourStatementSettings } from './statement-settings';
import * as schema from './schema';
import type { Database } from './database';
import { queryRows } from '../lib/raw-sql';

export { schema };

export type { Database };

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  /**
   * Embedded PGlite only: writes the whole cluster to `file`, which `pgliteSnapshot` opens as a copy
   * (a server's database is copied by the server: CREATE DATABASE … TEMPLATE).
   */
  saveSnapshot?(file: string): Promise<void>;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = path.join(GATEWAY_ROOT, 'drizzle');

export interface DatabaseTarget {
  /** A PostgreSQL server URL; when null, PGlite in `pgliteDir`. */
  databaseUrl: string | null;
  /** A directory, or `memory://`. */
  pgliteDir: string;
  /** PGlite: log statements slower than this (ms; 0 or absent: off). */
  slowStatementMs?: number;
  /** PGlite: a new cluster starts as a copy of this file (`DatabaseHandle.saveSnapshot`), not empty. */
  pgliteSnapshot?: string;
  /** PGlite: PostgreSQL's shared_buffers (absent: PGlite's default, 128MB). */
  pgliteSharedBuffers?: string;
  /** PGlite: on a thread of its own (absent: 'worker') or on this one (db/pglite-thread.ts). */
  pgliteThread?: PgliteThreadMode;
  /** PGlite: contacts one tenant may hold (absent: storage.ts's default; 0: no limit; docs/storage.md). */
  pgliteContactLimit?: number;
}

/**
 * Migrations 0016 and 0017 were once dated before 0015 in the journal; drizzle applies only what is
 * dated after a database's newest migration, so they now carry later dates. A database that applied
 * them under the old dates gets the new ones recorded first, so they are not run twice.
 */
const REDATED: readonly [number, number][] = [
  [1795710092223, 1796000000016],
  [1795710259413, 1796000000017],
];

async function redateMigrations(db: Database): Promise<void> {
  const [found] = await queryRows(db, sql`select to_regclass('drizzle.__drizzle_migrations')::text as t`);
  if (!found?.t) return;
  for (const [before, after] of REDATED) {
    await db.execute(sql`update drizzle.__drizzle_migrations set created_at = ${after} where created_at = ${before}`);
  }
}

/** Embedded PGlite, on its own thread or on this one, with slow statements logged when asked. */
async function openEmbedded(target: DatabaseTarget): Promise<PGliteThread | PGlite> {
  const options = {
    dir: target.pgliteDir,
    sharedBuffers: target.pgliteSharedBuffers,
    snapshot: target.pgliteSnapshot,
    slowStatementMs: target.slowStatementMs,
  };
  if ((target.pgliteThread ?? 'worker') === 'worker') return PGliteThread.open(options);
  const opened = honourStatementSettings(
    await openPglite(options.dir, { sharedBuffers: options.sharedBuffers, snapshot: options.snapshot }),
  );
  // Timing measures the statement itself; the turn it waits for comes outside (pglite-turns.ts).
  if (options.slowStatementMs) logSlowStatements(opened, options.slowStatementMs);
  return opened;
}

export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.databaseUrl) {
    // JIT compilation costs far more than it saves on the one-off counts and segment queries of a large
    // audience, and nothing on the short queries of a console (bench/README.md, "JIT off on a PostgreSQL
    // server"): the gateway turns it off for its sessions.
    const pool = new pg.Pool({ connectionString: target.databaseUrl, max: 10, options: '-c jit=off' });
    // node-postgres emits the errors of idle connections (a server restart, a terminated backend) on
    // the pool, and on a connection that is still closing after pool.end() has resolved; unhandled,
    // either would end the process. Queries in flight still get their own errors.
    let closing = false;
    const onConnectionError = (error: Error) => {
      if (!closing) console.error(`[gateway] database connection lost: ${error.message}`);
    };
    pool.on('error', onConnectionError);
    pool.on('connect', (client) => client.on('error', onConnectionError));
    const db = drizzleNodePg(pool, { schema });
    registerNotifications(db, postgresSubscribe(target.databaseUrl, onConnectionError));
    return {
      db,
      kind: 'postgres',
      migrate: async () => {
        await redateMigrations(db);
        await migrateNodePg(db, { migrationsFolder: MIGRATIONS_FOLDER });
      },
      close: async () => {
        closing = true;
        await stopListening(db);
        await pool.end();
      },
    };
  }
  // PGlite's thread chooses the order of statements itself (pglite-thread-worker.mjs); in this thread, turns do.
  const opened = await openEmbedded(target);
  const client = opened instanceof PGliteThread ? opened : takeTurns(opened);
  // PGliteThread offers the part of PGlite's API that Drizzle uses (db/pglite-thread.ts).
  const db = drizzlePglite({ client: client as PGlite, schema });
  setCapabilities(db, { contactsPerTenant: target.pgliteContactLimit });
  registerNotifications(db, pgliteSubscribe(client));
  return {
    db,
    kind: 'pglite',
    migrate: async () => {
      await redateMigrations(db);
      await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
    },
    saveSnapshot: (file) => (opened instanceof PGliteThread ? opened.saveSnapshot(file) : saveSnapshot(opened, file)),
    close: async () => {
      await stopListening(db);
      await client.close();
    },
  };
}
