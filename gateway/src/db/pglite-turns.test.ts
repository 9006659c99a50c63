// Turns on embedded PGlite (pglite-turns.ts): one statement per turn of the event loop, the console's
// requests before background work, which still gets one turn in FOREGROUND_RUN + 1.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { PGlite } from '@electric-sql/pglite';
import { openPglite } from './pglite-store.mjs';
import { FOREGROUND_GRACE_MS, FOREGROUND_RUN, inBackground, takeTurns } from './pglite-turns';

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

it("a request's next statement, made just after its last one ended, goes before background work", async () => {
  const order: string[] = [];
  const run = (label: string) => client.query(`select '${label}' as label`).then(() => order.push(label));
  // A request's first statement runs while background work queues; the request makes its next one
  // a moment after the first answered (after other work of the gateway: here a turn of the loop).
  const first = run('f1');
  const background = inBackground(() => run('b1'));
  await first;
  await new Promise((resolve) => setImmediate(resolve));
  await Promise.all([run('f2'), background]);
  assert.deepEqual(order, ['f1', 'f2', 'b1']);
  // Alone, background work waits no longer than the grace.
  const started = performance.now();
  await inBackground(() => run('b2'));
  assert.ok(performance.now() - started < FOREGROUND_GRACE_MS + 50, 'background work was not held up');
});
