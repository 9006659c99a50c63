// Committing a PGlite transaction in place (pglite-commit.ts): the rows are committed when the call
// returns, the caller goes on in the same synchronous frame, and a failed commit stores nothing. The
// same on PGlite in this thread and on its own thread (pglite-thread.ts, where this thread waits).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { commitInPlace, responseError } from './pglite-commit';
import { openPglite } from './pglite-store.mjs';
import { PGliteThread, type EmbeddedPglite } from './pglite-thread';
import { takeTurns } from './pglite-turns';

const open = {
  'in this thread': () => openPglite('memory://'),
  'on its own thread': () => PGliteThread.open({ dir: 'memory://' }),
};

/** Whether a transaction is open on the connection: SAVEPOINT works only inside one. */
async function inTransaction(client: EmbeddedPglite): Promise<boolean> {
  try {
    await client.query('savepoint probe');
  } catch {
    return false;
  }
  await client.query('release savepoint probe');
  return true;
}

for (const [where, start] of Object.entries(open)) {
  describe(where, () => {
    let client: EmbeddedPglite;
    before(async () => {
      client = takeTurns(await start());
      await client.exec(`create table sent (id int primary key);
                     create table once (id int unique deferrable initially deferred)`);
    });
    after(() => client.close());

    it('the rows are committed when it returns: an error after it rolls back nothing of them', async () => {
      await assert.rejects(
        client.transaction(async (tx) => {
          await tx.query('insert into sent values (1), (2)');
          commitInPlace(client);
          await tx.query('insert into sent values (3)');
          throw new Error('after the commit');
        }),
        /after the commit/,
      );
      assert.deepEqual((await client.query('select id from sent order by id')).rows, [{ id: 1 }, { id: 2 }]);
    });

    it('transaction() ends the empty transaction left in its place, and the client goes on', async () => {
      const value = await client.transaction(async (tx) => {
        await tx.query('insert into sent values (4)');
        commitInPlace(client);
        return 'done';
      });
      assert.equal(value, 'done');
      assert.equal(await inTransaction(client), false);
      assert.deepEqual((await client.query('select count(*)::int as n from sent')).rows, [{ n: 3 }]);
    });

    it("a commit that fails throws the server's message and stores nothing", async () => {
      let after = false;
      await assert.rejects(
        client.transaction(async (tx) => {
          await tx.query('insert into once values (1), (1)'); // checked at COMMIT
          commitInPlace(client);
          after = true;
        }),
        /duplicate key value violates unique constraint "once_id_key"/,
      );
      assert.equal(after, false);
      assert.equal(await inTransaction(client), false);
      assert.deepEqual((await client.query('select count(*)::int as n from once')).rows, [{ n: 0 }]);
    });
  });
}

it('reads the error out of a backend response, and finds none in a good one', () => {
  const message = (type: string, body: Buffer) => {
    const head = Buffer.alloc(5);
    head.write(type, 0, 'latin1');
    head.writeInt32BE(4 + body.length, 1);
    return Buffer.concat([head, body]);
  };
  const complete = message('C', Buffer.from('COMMIT\0'));
  const ready = message('Z', Buffer.from('I'));
  const error = message('E', Buffer.from('SERROR\0C40001\0Mcould not serialize access\0\0'));
  assert.equal(responseError(Buffer.concat([complete, ready])), null);
  assert.equal(responseError(Buffer.concat([complete, error, ready])), 'could not serialize access');
});
