// The migrated and seeded database a test file's gateway starts from, made once and copied per file
// when TEST_TEMPLATE_DIR names a directory for it (scripts/test.mjs sets one per run; without it
// every file migrates and seeds a database of its own):
// - on a PostgreSQL server, a database that CREATE DATABASE … TEMPLATE copies;
// - on embedded PGlite, a snapshot of the cluster, which db/index.ts opens as a copy (`pgliteSnapshot`).
// One template per engine and seed options (src/seed.ts stores the sample applet's URL). The first file
// that needs one makes it under a lock file, and the others wait for it.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { Config } from '../src/config';
import { openDatabase } from '../src/db/index';
import { seed } from '../src/seed';

/** Where a file's database comes from: a server's database to copy, or a PGlite snapshot to open. */
export type Template = { database: string } | { snapshot: string };

/**
 * The seed's times are relative to when it ran (accounts confirmed, a subscription's current period),
 * and suites compare them with the clock within minutes: a template older than this is made again.
 */
const MAX_AGE_MS = 2 * 60_000;
/** A lock left by a process that died while making a template (making one takes seconds). */
const STALE_LOCK_MS = 3 * 60_000;

type SeedOptions = Parameters<typeof seed>[1];

export function seedOptions(config: Config): SeedOptions {
  return { sampleAppletUrl: config.sampleAppletUrl };
}

async function onServer<T>(serverUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Migrates and seeds a new database (a server's, or a PGlite cluster saved to a file in `dir`). */
async function makeTemplate(dir: string, serverUrl: string | null, options: SeedOptions): Promise<Template> {
  const name = `gateway_template_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  if (serverUrl) await onServer(serverUrl, (c) => c.query(`create database "${name}"`));
  const handle = await openDatabase({
    databaseUrl: serverUrl ? databaseUrl(serverUrl, name) : null,
    pgliteDir: 'memory://',
  });
  try {
    await handle.migrate();
    await seed(handle.db, options);
    if (serverUrl) return { database: name };
    const snapshot = path.join(dir, `${name}.tar`);
    if (!handle.saveSnapshot) throw new Error('the embedded database cannot save a snapshot');
    await handle.saveSnapshot(snapshot);
    return { snapshot };
  } finally {
    // A server's template must have no connections left when it is copied.
    await handle.close();
  }
}

/** The template for this engine and seed, made now when there is none younger than MAX_AGE_MS. */
export async function seededTemplate(serverUrl: string | null, options: SeedOptions): Promise<Template | null> {
  const dir = process.env.TEST_TEMPLATE_DIR;
  if (!dir) return null;
  fs.mkdirSync(dir, { recursive: true });
  const key = createHash('sha256').update(JSON.stringify({ serverUrl, options })).digest('hex').slice(0, 16);
  const manifest = path.join(dir, `${serverUrl ? 'postgres' : 'pglite'}-${key}.json`);
  const lock = `${manifest}.lock`;
  const fresh = (): Template | null => {
    if (!fs.existsSync(manifest)) return null;
    const found = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { made: number; template: Template };
    return Date.now() - found.made < MAX_AGE_MS ? found.template : null;
  };
  for (;;) {
    const found = fresh();
    if (found) return found;
    let fd: number;
    try {
      fd = fs.openSync(lock, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const since = fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
      if (since !== undefined && Date.now() - since > STALE_LOCK_MS) fs.rmSync(lock, { force: true });
      await sleep(100);
      continue;
    }
    try {
      // Another file may have made it between the look above and the lock.
      const meanwhile = fresh();
      if (meanwhile) return meanwhile;
      const made = Date.now();
      const template = await makeTemplate(dir, serverUrl, options);
      const tmp = `${manifest}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify({ made, template }));
      fs.renameSync(tmp, manifest);
      return template;
    } finally {
      fs.closeSync(fd);
      fs.rmSync(lock, { force: true });
    }
  }
}
