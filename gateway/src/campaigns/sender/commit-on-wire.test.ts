// The sender's transaction that hands its result out once COMMIT is written (commit-on-wire.ts), on a
// PostgreSQL server (TEST_DATABASE_URL): the result is handed out once and the rows are committed; a
// transaction that fails before COMMIT hands nothing out and commits nothing; its connection goes back
// to the pool in a usable state.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../../db/index';
import { queryRows } from '../../lib/raw-sql';
import { scratchDatabase } from '../../../test/processes';
import { transactionCommittedOnWire } from './commit-on-wire';

const serverUrl = process.env.TEST_DATABASE_URL;

describe('transactionCommittedOnWire', { skip: !serverUrl && 'needs a PostgreSQL server (TEST_DATABASE_URL)' }, () => {
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;

  before(async () => {
    const scratch = await scratchDatabase(serverUrl ?? '', 'commit_on_wire');
    drop = scratch.drop;
    handle = await openDatabase({ databaseUrl: scratch.url, pgliteDir: 'memory://' });
    await handle.db.execute(sql`create table wire (n int primary key)`);
  });

  after(async () => {
    await handle?.close();
    await drop?.();
  });

  const count = async () => Number((await queryRows(handle.db, sql`select count(*)::int as n from wire`))[0]?.n);

  it('hands the result out once, before its commit is answered, and commits', async () => {
    const handedOut: string[] = [];
    const value = await transactionCommittedOnWire(
      handle.db,
      async (tx) => {
        await tx.execute(sql`insert into wire values (1), (2)`);
        return 'two rows';
      },
      (v) => handedOut.push(v),
    );
    assert.equal(value, 'two rows');
    assert.deepEqual(handedOut, ['two rows']);
    assert.equal(await count(), 2);
  });

  it('a transaction that fails before COMMIT hands nothing out and commits nothing', async () => {
    const handedOut: unknown[] = [];
    await assert.rejects(
      transactionCommittedOnWire(
        handle.db,
        async (tx) => {
          await tx.execute(sql`insert into wire values (3)`);
          await tx.execute(sql`insert into wire values (1)`); // a duplicate key
          return 'never';
        },
        (v) => handedOut.push(v),
      ),
    );
    assert.deepEqual(handedOut, []);
    assert.equal(await count(), 2, 'row 3 rolled back');
    // The pool's connections carry on (none is left inside the failed transaction).
    for (let i = 0; i < 12; i++) {
      await transactionCommittedOnWire(
        handle.db,
        async (tx) => tx.execute(sql`insert into wire values (${100 + i})`),
        () => undefined,
      );
    }
    assert.equal(await count(), 14);
  });
});
