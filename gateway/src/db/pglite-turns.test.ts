// Turns on embedded PGlite (pglite-turns.ts): one statement per turn of the event loop, the console's
// requests before background work, which still gets one turn in FOREGROUND_RUN + 1. The same order on
// PGlite's own thread, chosen there (pglite-thread-worker.mjs), where background work also waits while
// the console's requests run (held), one statement in FOREGROUND_HOLD_MS.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PGlite } from '@electric-sql/pglite';
import type { EmbeddedPglite } from './pglite-thread';
import { PGliteThread } from './pglite-thread';
import { openPglite } from './pglite-store.mjs';
import { FOREGROUND_GRACE_MS, FOREGROUND_RUN, inBackground, takeTurns } from './pglite-turns';

describe("in the gateway's thread (PGLITE_THREAD=main)", () => {
  let client: PGlite;
  before(async () => {
    client = takeTurns(await openPglite('memory://'));
  });
  after(() => client.close());

  it("requests' statements go before background work's, which still gets its turns", async () => {
    const order: string[] = [];
    const run = labelled(client, order);
    // Background work queues first, then six statements of requests arrive in the same turn.
    const background = inBackground(() => Promise.all(['b1', 'b2', 'b3'].map(run)));
    const foreground = Promise.all(['f1', 'f2', 'f3', 'f4', 'f5', 'f6'].map(run));
    await Promise.all([background, foreground]);
    assert.equal(FOREGROUND_RUN, 4);
    assert.deepEqual(order, ['f1', 'f2', 'f3', 'f4', 'b1', 'f5', 'f6', 'b2', 'b3']);
  });

  it("a request's next statement, made just after its last one ended, goes before background work", () =>
    requestKeepsItsTurn(client, FOREGROUND_GRACE_MS));

  it('alone, background work runs in order of arrival, and so do transactions', () => inOrderAlone(client));
});

describe("on PGlite's thread (the default)", () => {
  /** A longer grace than the gateway's, so that the test does not race the threads' own latency. */
  const GRACE_MS = 100;
  let client: PGliteThread;
  before(async () => {
    client = await PGliteThread.open({ dir: 'memory://', foregroundGraceMs: GRACE_MS });
  });
  after(() => client.close());

  it("requests' statements go before background work's, which still gets its turns", async () => {
    const order: string[] = [];
    const run = labelled(client, order);
    // The thread is busy while background work queues, then six statements of requests.
    const busy = client.query('select pg_sleep(0.2)').then(() => order.push('busy'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const background = inBackground(() => Promise.all(['b1', 'b2', 'b3'].map(run)));
    const foreground = Promise.all(['f1', 'f2', 'f3', 'f4', 'f5', 'f6'].map(run));
    await Promise.all([busy, background, foreground]);
    assert.deepEqual(order, ['busy', 'f1', 'f2', 'f3', 'f4', 'b1', 'f5', 'f6', 'b2', 'b3']);
  });

  it("a request's next statement, made just after its last one ended, goes before background work", () =>
    requestKeepsItsTurn(client, GRACE_MS));

  it('a background transaction holds the database until it ends; its statements do not queue', async () => {
    const order: string[] = [];
    const tx = inBackground(() =>
      client.transaction(async (t) => {
        await t.query('select pg_sleep(0.05)');
        order.push('tx statement');
        await t.query('select 1');
        order.push('tx end');
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    await Promise.all([tx, client.query('select 2').then(() => order.push('request'))]);
    assert.deepEqual(order, ['tx statement', 'tx end', 'request']);
  });

  it('alone, background work runs in order of arrival, and so do transactions', () => inOrderAlone(client));

  it('while requests run (held), background work starts one statement in the hold time; released, at once', async () => {
    // Long enough that a loaded machine's hiccups do not decide the outcome.
    const HOLD_MS = 1_000;
    const held = await PGliteThread.open({ dir: 'memory://', foregroundHoldMs: HOLD_MS });
    try {
      held.holdBackground(true);
      const started = performance.now();
      const ran: number[] = [];
      const background = inBackground(() =>
        Promise.all(
          ['b1', 'b2'].map((b) => held.query(`select '${b}'`).then(() => ran.push(performance.now() - started))),
        ),
      );
      // A request's statement goes at once.
      const t = performance.now();
      await held.query('select 1');
      assert.ok(performance.now() - t < HOLD_MS / 2, "the request's statement did not wait");
      await new Promise((resolve) => setTimeout(resolve, HOLD_MS * 1.3));
      assert.equal(ran.length, 1, 'one background statement in the hold time, not two');
      assert.ok(ran[0]! >= HOLD_MS - 10, `the first waited for the hold (${Math.round(ran[0]!)} ms)`);
      held.holdBackground(false);
      await background;
      assert.ok(ran[1]! < HOLD_MS * 1.7, `released, the second went at once (${Math.round(ran[1]!)} ms)`);
    } finally {
      await held.close();
    }
  });
});

/** Runs `select '<label>'`, and notes the label in `order` once answered. */
function labelled(client: EmbeddedPglite, order: string[]) {
  return (label: string) => client.query(`select '${label}' as label`).then(() => order.push(label));
}

async function requestKeepsItsTurn(client: EmbeddedPglite, graceMs: number) {
  const order: string[] = [];
  const run = labelled(client, order);
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
  assert.ok(performance.now() - started < graceMs + 50, 'background work was not held up');
}

async function inOrderAlone(client: EmbeddedPglite) {
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
}
