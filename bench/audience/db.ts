// The database a benchmark runs on: the gateway's own handle (Drizzle, migrations) on a PostgreSQL
// server or an embedded PGlite directory, plus raw access to the same connection for set-based SQL
// (the generator) and COPY (the import baseline).
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { PGlite } from '@electric-sql/pglite';
import { PGliteThread } from '../../gateway/src/db/pglite-thread.ts';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { openDatabase, type Database, type DatabaseHandle } from '../../gateway/src/db/index.ts';

export type DbTarget = { kind: 'postgres'; url: string } | { kind: 'pglite'; dir: string };

export interface BenchDb {
  kind: DbTarget['kind'];
  /** For printed figures: "PostgreSQL 15.x" or "PGlite 0.5.16 (PostgreSQL 17.x)". */
  label: string;
  handle: DatabaseHandle;
  query<T extends object = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs `fn` on one connection with session settings (reset afterwards); PGlite has only one connection. */
  session<T>(settings: Record<string, string>, fn: (query: BenchDb['query']) => Promise<T>): Promise<T>;
  /** COPY a CSV file (with a header line) into `table`; returns the rows copied. */
  copyCsv(table: string, file: string): Promise<number>;
  close(): Promise<void>;
}

/** The connection Drizzle was built on (drizzle keeps it as `$client`). */
function clientOf(db: Database): unknown {
  return '$client' in db ? db.$client : null;
}

/** Opens (and migrates) the gateway's database at `target`. */
export async function openBenchDb(target: DbTarget): Promise<BenchDb> {
  const handle = await openDatabase(
    target.kind === 'postgres'
      ? { databaseUrl: target.url, pgliteDir: 'memory://' }
      : // The bench's tenants are larger than embedded PGlite's contact limit (docs/storage.md).
        { databaseUrl: null, pgliteDir: target.dir, pgliteContactLimit: 0 },
  );
  await handle.migrate();
  const client = clientOf(handle.db);
  let db: BenchDb;
  if (client instanceof pg.Pool) {
    const pool = client;
    db = {
      kind: 'postgres',
      label: 'PostgreSQL',
      handle,
      async query<T extends object>(text: string, params: unknown[] = []) {
        return (await pool.query<T>(text, params)).rows;
      },
      async session(settings, fn) {
        const conn = await pool.connect();
        try {
          for (const [name, value] of Object.entries(settings)) {
            await conn.query('select set_config($1, $2, false)', [name, value]);
          }
          return await fn(async <T extends object>(text: string, params: unknown[] = []) => {
            return (await conn.query<T>(text, params)).rows;
          });
        } finally {
          await conn.query('reset all').catch(() => undefined);
          conn.release();
        }
      },
      async copyCsv(table, file) {
        const conn = await pool.connect();
        try {
          const stream = conn.query(copyFrom(`COPY ${table} FROM STDIN WITH (FORMAT csv, HEADER true)`));
          await pipeline(fs.createReadStream(file, { highWaterMark: 1 << 20 }), stream);
          return stream.rowCount;
        } finally {
          conn.release();
        }
      },
      close: () => handle.close(),
    };
  } else if (client instanceof PGlite || client instanceof PGliteThread) {
    const lite = client;
    db = {
      kind: 'pglite',
      label: 'PGlite',
      handle,
      async query<T extends object>(text: string, params: unknown[] = []) {
        return (await lite.query<T>(text, params)).rows;
      },
      async session(settings, fn) {
        const query = async <T extends object>(text: string, params: unknown[] = []) => {
          return (await lite.query<T>(text, params)).rows;
        };
        for (const [name, value] of Object.entries(settings)) {
          // PGlite has no JIT; skip settings it does not know.
          await lite.query('select set_config($1, $2, false)', [name, value]).catch(() => undefined);
        }
        try {
          return await fn(query);
        } finally {
          await lite.query('reset all');
        }
      },
      async copyCsv(table, file) {
        const blob = new Blob([fs.readFileSync(file)]);
        const r = await lite.query(`COPY ${table} FROM '/dev/blob' WITH (FORMAT csv, HEADER true)`, [], { blob });
        return r.affectedRows ?? 0;
      },
      close: () => handle.close(),
    };
  } else {
    await handle.close();
    throw new Error('the gateway database handle has no pg.Pool or PGlite client');
  }
  const [v] = await db.query<{ v: string }>(`select current_setting('server_version') as v`);
  db.label = db.kind === 'postgres' ? `PostgreSQL ${v?.v ?? '?'}` : `PGlite (PostgreSQL ${v?.v ?? '?'})`;
  return db;
}

/** A fresh database on a PostgreSQL server (from its admin URL); `drop` removes it. */
export async function createServerDatabase(
  adminUrl: string,
  name: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`);
  const run = async (text: string) => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(text);
    } finally {
      await c.end();
    }
  };
  await run(`drop database if exists "${name}" with (force)`);
  await run(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists "${name}" with (force)`) };
}
