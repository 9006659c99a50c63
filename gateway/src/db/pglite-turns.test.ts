// Turns on embedded PGlite (pglite-turns.ts): one statement per turn of the event loop, the console's
// requests before background work, which still gets one turn in FOREGROUND_RUN + 1.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { PGlite } from '@electric-sql/pglite';
import { openPglite } from './pglite-store.mjs';
import { FOREGROUND_RUN, inBackground, takeTurns } from './pglite-turns';

let client: PGlite;
before(async () => {
  client = takeTurns(await openPglite('memory://'));
});
after(() => client.close());

it("requests' statements go before background work's, which still gets its turns", async () => {
  const order: string[] = [];
  const run = (label: string) => client.query(`select '${label}' as label`).then(() => order.push(label));
  // Background work queues first, then six statements of requests arrive in the same turn.
  const background = inBackground(() => Promise.all(['b1', 'b2', 'b3'].map(run)));
  const foreground = Promise.all(['f1', 'f2', 'f3', 'f4', 'f5', 'f6'].map(run));
  await Promise.all([background, foreground]);
  assert.equal(FOREGROUND_RUN, 4);
  assert.deepEqual(order, ['f1', 'f2', 'f3', 'f4', 'b1', 'f5', 'f6', 'b2', 'b3']);
});

it('alone, background work runs in order of arrival, and so do transactions', async () => {
  const order: string[] = [];
  await inBackground(() =>
    Promise.all([
      client.query(`select 1`).then(() => order.push('q1')),
      client.transaction(async (tx) => {
        await tx.query('select 2');
        order.push('tx');
      }),
      client.query(`select 3`).then(() => order.push('q3')),
    ]),
  );
  assert.deepEqual(order, ['q1', 'tx', 'q3']);
});
