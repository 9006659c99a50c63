// The "has endpoints" cache behind the delivery events' hook: a tenant without endpoints costs one read
// per period, then nothing per message; a change of its endpoints is seen at once in this process.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Database } from '../db/index';
import { EndpointPresence } from './presence';
import { nextAttemptAt, attemptsAllowed } from './retry-schedule';
import { DEFAULT_WEBHOOK_RETRY_SECONDS } from '../config';

/** A database stand-in that answers "has endpoints" from `has` and counts its reads. */
function fakeDb(has: () => boolean) {
  const reads = { n: 0 };
  const db = {
    execute: async () => {
      reads.n++;
      return { rows: has() ? [{ '?column?': 1 }] : [] };
    },
  } as unknown as Database;
  return { db, reads };
}

describe('endpoint presence', () => {
  it('reads once per period; a tenant known to have none is not wanted, with no read per message', async () => {
    let now = 0;
    const { db, reads } = fakeDb(() => false);
    const presence = new EndpointPresence(db, 30_000, () => now);
    assert.equal(presence.wants('t1'), true, 'unknown: wanted until read');
    assert.equal(await presence.has('t1'), false);
    for (let i = 0; i < 10_000; i++) assert.equal(presence.wants('t1'), false);
    assert.equal(reads.n, 1);
    now += 30_001;
    assert.equal(presence.wants('t1'), true, 'expired: read again');
    assert.equal(await presence.has('t1'), false);
    assert.equal(reads.n, 2);
  });

  it('learn() reads an unknown tenant once in the background; the next wants() answers from memory', async () => {
    const { db, reads } = fakeDb(() => false);
    const presence = new EndpointPresence(db);
    assert.equal(presence.wants('t'), true);
    presence.learn('t');
    presence.learn('t');
    await presence.has('t');
    assert.equal(reads.n, 1, 'one read, shared');
    assert.equal(presence.wants('t'), false);
    presence.learn('t');
    assert.equal(reads.n, 1, 'known: no read');
  });

  it('concurrent asks share one read; forget() after a change is seen at once', async () => {
    let has = false;
    const { db, reads } = fakeDb(() => has);
    const presence = new EndpointPresence(db);
    assert.deepEqual(await Promise.all([presence.has('t'), presence.has('t'), presence.has('t')]), [
      false,
      false,
      false,
    ]);
    assert.equal(reads.n, 1);
    has = true;
    presence.forget('t');
    assert.equal(presence.wants('t'), true);
    assert.equal(await presence.has('t'), true);
  });
});

describe('retry schedule', () => {
  it('the default spans about a day in eight attempts; the last failure has no next', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    assert.equal(attemptsAllowed(DEFAULT_WEBHOOK_RETRY_SECONDS), 8);
    assert.equal(nextAttemptAt(DEFAULT_WEBHOOK_RETRY_SECONDS, 1, at)?.getTime(), at.getTime() + 5_000);
    assert.equal(nextAttemptAt(DEFAULT_WEBHOOK_RETRY_SECONDS, 2, at)?.getTime(), at.getTime() + 300_000);
    assert.equal(nextAttemptAt(DEFAULT_WEBHOOK_RETRY_SECONDS, 8, at), null);
    const total = DEFAULT_WEBHOOK_RETRY_SECONDS.reduce((a, b) => a + b, 0);
    assert.ok(total >= 86_400 && total < 2 * 86_400, `${total} s`);
  });
});
