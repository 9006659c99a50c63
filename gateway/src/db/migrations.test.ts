import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { MIGRATIONS_FOLDER, openDatabase } from './index';
import { queryRows, textOf } from '../lib/raw-sql';

interface JournalEntry {
  idx: number;
  when: number;
  tag: string;
}

describe('migration journal', () => {
  // drizzle's migrator applies a migration only when its `when` is later than the newest one a
  // database already has: a migration dated earlier than its predecessor would never reach a
  // database that was migrated before it existed.
  it('dates every migration later than the one before it, and names a file that exists', () => {
    const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
      entries: JournalEntry[];
    };
    journal.entries.forEach((entry, i) => {
      assert.equal(entry.idx, i);
      assert.ok(fs.existsSync(path.join(MIGRATIONS_FOLDER, `${entry.tag}.sql`)), entry.tag);
      const before = journal.entries[i - 1];
      if (before) assert.ok(entry.when > before.when, `${entry.tag} is dated after ${before.tag}`);
    });
  });
});

describe('migrating a database', () => {
  it('does not run 0016 and 0017 again on a database that applied them under their old dates', async () => {
    const handle = await openDatabase({ databaseUrl: null, pgliteDir: 'memory://' });
    try {
      await handle.migrate();
      const applied = async () =>
        (
          await queryRows(handle.db, sql`select created_at::text as at from drizzle.__drizzle_migrations order by id`)
        ).map((r) => textOf(r, 'at'));
      const before = await applied();
      await handle.db.execute(
        sql`update drizzle.__drizzle_migrations set created_at = 1795710092223 where created_at = 1796000000016`,
      );
      await handle.db.execute(
        sql`update drizzle.__drizzle_migrations set created_at = 1795710259413 where created_at = 1796000000017`,
      );
      await handle.migrate();
      assert.deepEqual(await applied(), before);
    } finally {
      await handle.close();
    }
  });
});
