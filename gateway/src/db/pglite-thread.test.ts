// Embedded PGlite on its own thread (pglite-thread.ts): values, errors, transactions and notifications
// behave as they do with PGlite in the gateway's thread, and what cannot cross threads is refused.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { types } from '@electric-sql/pglite';
import { loadConfig } from '../config';
import { uniqueViolation } from '../lib/db-helpers';
import { isPglite, pgliteClient } from './engine';
import { openDatabase } from './index';
import { PGliteThread } from './pglite-thread';

let client: PGliteThread;
before(async () => {
  client = await PGliteThread.open({ dir: 'memory://' });
  await client.exec('create table t (id int primary key, note text)');
});
after(() => client.close());

it('values cross as PGlite parses them, and types Drizzle keeps as text stay text', async () => {
  const { rows } = await client.query<{ b: Uint8Array; j: unknown; big: number; at: Date; n: number[] }>(
    `select $1::bytea as b, $2::jsonb as j, 10::int8 as big, '2026-01-02T03:04:05Z'::timestamptz as at, $3::int[] as n`,
    [new Uint8Array([1, 2, 255]), JSON.stringify({ x: [1, 'a'] }), [3, 4]],
  );
  assert.deepEqual([...(rows[0]?.b ?? [])], [1, 2, 255]);
  assert.deepEqual(rows[0]?.j, { x: [1, 'a'] });
  assert.equal(rows[0]?.big, 10);
  assert.equal(rows[0]?.at.toISOString(), '2026-01-02T03:04:05.000Z');
  assert.deepEqual(rows[0]?.n, [3, 4]);
  const text = await client.query<unknown[]>(`select '2026-01-02T03:04:05Z'::timestamptz`, [], {
    rowMode: 'array',
    parsers: { [types.TIMESTAMPTZ]: (value: string) => value },
  });
  assert.deepEqual(text.rows, [['2026-01-02 03:04:05+00']]);
});

it('a parser that changes values cannot cross threads and is refused, not ignored', () => {
  assert.throws(
    () => client.query('select 1', [], { parsers: { [types.INT4]: (value: string) => Number(value) * 2 } }),
    /a parser for type 23 must keep the text/,
  );
});

it("errors keep PostgreSQL's fields (code, constraint), so unique violations are recognised", async () => {
  await client.query(`insert into t values (1, 'one')`);
  const error = await client.query(`insert into t values (1, 'again')`).catch((e: unknown) => e);
  assert.ok(error instanceof Error);
  assert.match(error.message, /duplicate key value violates unique constraint "t_pkey"/);
  assert.equal(uniqueViolation(error), 't_pkey');
});

it('a transaction commits, rolls back when its callback throws, and holds the database until it ends', async () => {
  const order: string[] = [];
  const held = client.transaction(async (tx) => {
    await tx.query(`insert into t values (2, 'two')`);
    await sleep(50); // a statement outside must wait for the commit
    order.push('commit');
    return 'done';
  });
  await sleep(5);
  const outside = client.query<{ n: number }>('select count(*)::int as n from t').then((r) => {
    order.push('outside');
    return r.rows[0]?.n;
  });
  assert.equal(await held, 'done');
  assert.equal(await outside, 2);
  assert.deepEqual(order, ['commit', 'outside']);

  await assert.rejects(
    client.transaction(async (tx) => {
      await tx.query(`insert into t values (3, 'three')`);
      throw new Error('changed my mind');
    }),
    /changed my mind/,
  );
  assert.deepEqual((await client.query('select id from t order by id')).rows, [{ id: 1 }, { id: 2 }]);
});

it('a notification arrives before the answer of the statement that raised it', async () => {
  const seen: string[] = [];
  const stop = await client.listen('news', (payload) => seen.push(payload));
  await client.query(`select pg_notify('news', 'hello')`);
  assert.deepEqual(seen, ['hello']);
  await stop();
  await client.query(`select pg_notify('news', 'unheard')`);
  assert.deepEqual(seen, ['hello']);
});

it('once closed, the thread has ended and every call says so, also one sent as it closed', async () => {
  const own = await PGliteThread.open({ dir: 'memory://' });
  const closing = own.close();
  // Answered by PGlite's refusal, or by the end of the thread (refused at once: handled at once).
  const during = assert.rejects(own.query('select 1'));
  await closing;
  await during;
  await assert.rejects(own.query('select 1'), /the database is closed/);
});

it('the gateway opens PGlite on its own thread unless PGLITE_THREAD=main, with the settings it was given', async () => {
  assert.equal(loadConfig({}).pgliteThread, 'worker');
  assert.equal(loadConfig({ PGLITE_THREAD: 'main' }).pgliteThread, 'main');
  assert.throws(() => loadConfig({ PGLITE_THREAD: 'both' }), /PGLITE_THREAD must be "worker" or "main"/);
  for (const [mode, threaded] of [
    ['worker', true],
    ['main', false],
  ] as const) {
    const handle = await openDatabase({
      databaseUrl: null,
      pgliteDir: 'memory://',
      pgliteSharedBuffers: '8MB',
      pgliteThread: mode,
    });
    try {
      assert.equal(isPglite(handle.db), true);
      assert.equal(pgliteClient(handle.db) instanceof PGliteThread, threaded);
      const { rows } = await pgliteClient(handle.db).query<{ shared_buffers: string }>('show shared_buffers');
      assert.equal(rows[0]?.shared_buffers, '8MB');
    } finally {
      await handle.close();
    }
  }
});
