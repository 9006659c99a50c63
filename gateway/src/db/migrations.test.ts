import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { MIGRATIONS_FOLDER } from './index';

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
