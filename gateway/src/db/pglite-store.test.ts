// Embedded PGlite's memory: shared_buffers from PGLITE_SHARED_BUFFERS (default 16MB), checked when
// the configuration loads. A snapshot of a cluster opens as a copy of it, on either thread.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { it } from 'node:test';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../config';
import { queryRows } from '../lib/raw-sql';
import { openDatabase } from './index';
import { openPglite } from './pglite-store.mjs';

it('opens PGlite with the configured shared_buffers', async () => {
  const client = await openPglite('memory://', { sharedBuffers: loadConfig({}).pgliteSharedBuffers });
  try {
    const { rows } = await client.query<{ shared_buffers: string }>('show shared_buffers');
    assert.equal(rows[0]?.shared_buffers, '16MB');
  } finally {
    await client.close();
  }
});

it('PGLITE_SHARED_BUFFERS takes a size in kB, MB or GB, and refuses anything else', () => {
  assert.equal(loadConfig({ PGLITE_SHARED_BUFFERS: '64MB' }).pgliteSharedBuffers, '64MB');
  for (const bad of ['64', '64mb', '0MB', '1TB', '16 MB; drop']) {
    assert.throws(() => loadConfig({ PGLITE_SHARED_BUFFERS: bad }), /PGLITE_SHARED_BUFFERS must be a size/);
  }
});

for (const thread of ['worker', 'main'] as const) {
  it(`a cluster saved as a snapshot opens as a copy, rows and all (PGlite on the ${thread} thread)`, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pglite-snapshot-'));
    const file = path.join(dir, 'cluster.tar');
    const target = { databaseUrl: null, pgliteDir: 'memory://', pgliteThread: thread };
    try {
      const first = await openDatabase(target);
      try {
        await first.db.execute(sql`create table kept (v text)`);
        await first.db.execute(sql`insert into kept values ('before the snapshot')`);
        assert.ok(first.saveSnapshot, 'embedded PGlite saves snapshots');
        await first.saveSnapshot(file);
        await first.db.execute(sql`insert into kept values ('after it')`);
      } finally {
        await first.close();
      }
      const copy = await openDatabase({ ...target, pgliteSnapshot: file });
      try {
        const rows = await queryRows(copy.db, sql`select v from kept`);
        assert.deepEqual(
          rows.map((r) => r.v),
          ['before the snapshot'],
        );
      } finally {
        await copy.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}
