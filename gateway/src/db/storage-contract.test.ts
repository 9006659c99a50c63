// The storage interface's contract (db/storage.ts, docs/storage.md), one suite for both engines: it runs
// on embedded PGlite by default and on a PostgreSQL server with TEST_DATABASE_URL, and asserts only
// what product code may count on: results, their order, bounds, and capabilities that add up.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { pgError } from '../lib/db-helpers';
import { intOf, queryRows } from '../lib/raw-sql';
import { startGateway, type TestGateway } from '../../test/helpers';
import type { Database } from './database';
import {
  asBackgroundWork,
  jobQueueConnection,
  readInIndexOrder,
  readThroughIndexes,
  storageUpkeep,
  requestsRunningSignal,
  storageCapabilities,
  yieldToRequests,
} from './storage';

const ROWS = 3000;

let gw: TestGateway;
let db: Database;

before(async () => {
  gw = await startGateway({ PGLITE_CONTACT_LIMIT: '1234' });
  db = gw.handle.db;
  await db.execute(sql`create table storage_contract (id int primary key, grp int not null, k int not null)`);
  await db.execute(sql`create index storage_contract_grp_k on storage_contract (grp, k, id)`);
  // k runs against id, so an index order and the table's order differ.
  await db.execute(
    sql`insert into storage_contract select i, i % 3, (i * 7919) % 1000 from generate_series(1, ${ROWS}) i`,
  );
});
after(() => gw.close());

/** Ids of group `grp` with k above `after`, in (k, id) order, `limit` at most: a keyset window. */
const windowQuery = (grp: number, after: number, limit: number) =>
  sql`select id from storage_contract where grp = ${grp} and k > ${after} order by k, id limit ${limit}`;

/** The same ids worked out here, from every row. */
function expectedWindow(grp: number, after: number, limit: number): number[] {
  const rows: { id: number; k: number }[] = [];
  for (let id = 1; id <= ROWS; id++) if (id % 3 === grp && (id * 7919) % 1000 > after) rows.push({ id, k: (id * 7919) % 1000 }); // prettier-ignore
  return rows
    .sort((a, b) => a.k - b.k || a.id - b.id)
    .slice(0, limit)
    .map((r) => r.id);
}

const ids = (rows: Record<string, unknown>[]) => rows.map((r) => intOf(r, 'id'));

describe('readInIndexOrder', () => {
  it('answers what the statement answers, in its order, within its LIMIT', async () => {
    for (const [grp, from, limit] of [
      [0, -1, 50],
      [1, 500, 100],
      [2, 990, 1000],
    ] as const) {
      const rows = await readInIndexOrder(db, (q) => queryRows(q, windowQuery(grp, from, limit)));
      assert.deepEqual(ids(rows), expectedWindow(grp, from, limit));
      assert.ok(rows.length <= limit);
    }
  });

  it('with sort memory asked for, the same rows', async () => {
    const rows = await readInIndexOrder(db, (q) => queryRows(q, windowQuery(1, 10, 200)), { workMem: '8MB' });
    assert.deepEqual(ids(rows), expectedWindow(1, 10, 200));
  });

  it('several statements each see the latest data, and an error reaches the caller', async () => {
    const [before, after] = await readInIndexOrder(db, async (q) => {
      const [a] = await queryRows(q, sql`select count(*)::int as n from storage_contract where grp = 0`);
      await q.execute(sql`insert into storage_contract values (${ROWS + 3}, 0, 1)`);
      const [b] = await queryRows(q, sql`select count(*)::int as n from storage_contract where grp = 0`);
      return [intOf(a ?? {}, 'n'), intOf(b ?? {}, 'n')];
    });
    assert.equal(after, before + 1);
    await db.execute(sql`delete from storage_contract where id = ${ROWS + 3}`);
    await assert.rejects(
      readInIndexOrder(db, (q) => q.execute(sql`select 1 / 0`)),
      (error) => pgError(error)?.code === '22012',
    );
  });

  it('leaves statements made after it as they were', async () => {
    await readInIndexOrder(db, (q) => q.execute(sql`select 1`));
    const [row] = await queryRows(db, sql`select current_setting('enable_seqscan') as s`);
    assert.equal(row?.s, 'on');
  });
});

describe('readThroughIndexes', () => {
  it('answers what the statement answers: a count and a sorted read of what an index finds', async () => {
    const [count] = await readThroughIndexes(db, (q) =>
      queryRows(q, sql`select count(*)::int as n from storage_contract where grp = 2 and k < 100`),
    );
    const expected = expectedWindow(2, -1, ROWS).filter((id) => (id * 7919) % 1000 < 100);
    assert.equal(intOf(count ?? {}, 'n'), expected.length);
    const rows = await readThroughIndexes(db, (q) =>
      queryRows(q, sql`select id from storage_contract where grp = 2 and k < 100 order by id desc limit 7`),
    );
    assert.deepEqual(ids(rows), [...expected].sort((a, b) => b - a).slice(0, 7));
  });

  it('runs statements side by side where the engine can, and answers each', async () => {
    const [a, b] = await readThroughIndexes(db, (q) =>
      Promise.all([queryRows(q, windowQuery(0, 0, 5)), queryRows(q, windowQuery(1, 0, 5))]),
    );
    assert.deepEqual(ids(a), expectedWindow(0, 0, 5));
    assert.deepEqual(ids(b), expectedWindow(1, 0, 5));
  });
});

describe('yieldToRequests', () => {
  it('lets waiters go in order, one per turn of the event loop, with I/O callbacks between them', async () => {
    const order: string[] = [];
    const waits = [1, 2, 3].map((n) => yieldToRequests().then(() => order.push(`yield ${n}`)));
    setImmediate(() => order.push('immediate'));
    await Promise.all(waits);
    assert.deepEqual(
      order.filter((o) => o.startsWith('yield')),
      ['yield 1', 'yield 2', 'yield 3'],
    );
    assert.ok(order.indexOf('immediate') < order.indexOf('yield 3'), order.join(', '));
  });
});

describe('background work', () => {
  it('answers what its work answers, errors included, while requests are said to run', async () => {
    const signal = requestsRunningSignal(db);
    signal?.(true);
    try {
      const n = await asBackgroundWork(db, async () => {
        let total = 0;
        for (let i = 0; i < 5; i++) {
          const [row] = await queryRows(db, sql`select count(*)::int as n from storage_contract where grp = ${i % 3}`);
          total += intOf(row ?? {}, 'n');
          await yieldToRequests();
        }
        return total;
      });
      assert.equal(n, 2 * (ROWS / 3) + ROWS / 3 + 2 * (ROWS / 3));
      // A request's statement meanwhile is answered too.
      const [row] = await queryRows(db, sql`select count(*)::int as n from storage_contract`);
      assert.equal(intOf(row ?? {}, 'n'), ROWS);
      await assert.rejects(
        asBackgroundWork(db, () => Promise.reject(new Error('job failed'))),
        /job failed/,
      );
    } finally {
      signal?.(false);
    }
  });
});

describe('storageCapabilities', () => {
  it('add up: a contact limit (the configured one where the database is this process alone), statement and commit bounds', () => {
    const c = storageCapabilities(db);
    if (c.ownedByProcess) assert.equal(c.contactsPerTenant, 1234);
    else assert.equal(c.contactsPerTenant, Infinity);
    assert.ok(c.readRows >= 1000 && c.writeRows >= 100);
    const pace = c.commitPace;
    assert.ok(pace.targetMs > 0);
    assert.ok(pace.leastRows <= pace.startRows && pace.startRows <= pace.mostRows);
  });

  it('a database of this process alone has its job queue on its own connection; a server opens its own', () => {
    assert.equal(jobQueueConnection(db) !== null, storageCapabilities(db).ownedByProcess);
  });
});

describe('storageUpkeep', () => {
  it('is a recurring job where the engine needs one (a database of this process alone), and it runs', async () => {
    const upkeep = storageUpkeep(db);
    assert.equal(upkeep !== null, storageCapabilities(db).ownedByProcess);
    if (upkeep) {
      assert.match(upkeep.cron, /^[*\d]/);
      await upkeep.run();
    }
  });
});
