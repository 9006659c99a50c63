// Planner settings for single statements on embedded PGlite (statement-settings.ts, used by
// db/storage.ts): each statement made inside runs with them, nothing else does, and on PGlite's
// thread the statement and its settings are one request.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'drizzle-orm';
import { readInIndexOrder, readThroughIndexes } from './storage';
import { pgliteClient } from './engine';
import { queryRows, textOf } from '../lib/raw-sql';
import { openDatabase, type Database } from './index';
import type { Request } from './pglite-thread-protocol';

const settingsNow = sql`select current_setting('enable_seqscan') as seqscan, current_setting('enable_sort') as sort`;

async function settingsOf(db: Database) {
  const [row] = await queryRows(db, settingsNow);
  return row ? `${textOf(row, 'seqscan')}/${textOf(row, 'sort')}` : '';
}

for (const mode of ['worker', 'main'] as const) {
  it(`PGLITE_THREAD=${mode}: a statement in index order runs with its settings, and the next one without`, async () => {
    const handle = await openDatabase({ databaseUrl: null, pgliteDir: 'memory://', pgliteThread: mode });
    const { db } = handle;
    try {
      assert.equal(await settingsOf(db), 'on/on');
      // A Drizzle query runs when it is awaited: returned unawaited, it must still get the settings.
      const lazy: unknown = await readInIndexOrder(db, (q) => q.execute(settingsNow));
      assert.deepEqual(lazy && typeof lazy === 'object' && 'rows' in lazy ? lazy.rows : null, [
        { seqscan: 'off', sort: 'off' },
      ]);
      assert.equal(await readThroughIndexes(db, (q) => settingsOf(q)), 'off/on');
      // Made at the same time, outside: without them; and nothing is left set afterwards.
      const [inside, outside] = await Promise.all([
        readInIndexOrder(db, async (q) => [await settingsOf(q), await settingsOf(q)]),
        settingsOf(db),
      ]);
      assert.deepEqual(inside, ['off/off', 'off/off']);
      assert.equal(outside, 'on/on');
      assert.equal(await settingsOf(db), 'on/on');
      // A failed statement leaves nothing set either.
      await assert.rejects(readInIndexOrder(db, (q) => q.execute(sql`select 1/0`)));
      assert.equal(await settingsOf(db), 'on/on');
    } finally {
      await handle.close();
    }
  });
}

it("on PGlite's thread, a statement with settings is one request to the thread", async () => {
  const handle = await openDatabase({ databaseUrl: null, pgliteDir: 'memory://', pgliteThread: 'worker' });
  try {
    const worker = Reflect.get(pgliteClient(handle.db), 'worker') as { postMessage: (r: Request) => void };
    const sent: Request[] = [];
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (request: Request) => {
      sent.push(request);
      post(request);
    };
    assert.equal(await readInIndexOrder(handle.db, (q) => settingsOf(q)), 'off/off');
    assert.deepEqual(
      sent.map((r) => r.op),
      ['query'],
    );
    assert.match(sent[0]?.op === 'query' ? (sent[0].first?.sql ?? '') : '', /set_config/);
  } finally {
    await handle.close();
  }
});
