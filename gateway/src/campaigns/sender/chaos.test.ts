// The send under faults, on the engine of this run (docs/sending.md, "Tests that hold it"): real
// processes killed and frozen at random moments of a 5,000-recipient send (test/chaos.ts). Every
// recipient is received or flagged unconfirmed, the API's figures match the rows and the peer's count,
// nobody receives it twice, and no delivered row is ever moved back. On a PostgreSQL server a frozen
// worker's campaign is taken over within a lease and a quarter (8 s + 2 s) and a little slack.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { runChaos } from '../../../test/chaos';

const RECIPIENTS = 5_000;

it(
  'a send under kills (and on a server, a freeze) loses nothing silently and sends nobody twice',
  { timeout: 600_000 },
  async (t) => {
    const r = await runChaos({
      recipients: RECIPIENTS,
      serverUrl: process.env.TEST_DATABASE_URL ?? null,
      pool: 4,
      peerDelayMs: 3,
      log: (line) => t.diagnostic(line),
      ...(process.env.CHAOS_SEED ? { seed: Number(process.env.CHAOS_SEED) } : {}),
    });
    t.diagnostic(
      `received ${r.received} (${r.distinct} distinct), delivered ${r.delivered}, unconfirmed ${r.unconfirmed}, ${r.seconds.toFixed(0)} s`,
    );
    t.diagnostic(JSON.stringify({ ...r, faults: undefined }));
    assert.equal(r.recipients, RECIPIENTS);
    assert.deepEqual(r.other, {}, 'every row delivered or unconfirmed');
    assert.equal(r.delivered + r.unconfirmed, RECIPIENTS);
    assert.equal(r.received, r.distinct, 'nobody received it twice');
    assert.equal(r.deliveredNotReceived, 0, 'every delivered row arrived');
    assert.equal(r.receivedNotFlagged, 0, 'every arrived message is delivered or flagged');
    assert.ok(
      r.delivered <= r.received && r.received <= r.delivered + r.unconfirmed,
      'the peer count within the figures',
    );
    assert.deepEqual(
      r.api,
      { status: 'sent', recipients: RECIPIENTS, sent: RECIPIENTS, delivered: r.delivered, unconfirmed: r.unconfirmed },
      "the API's figures are the rows'",
    );
    assert.equal(r.movedBack, 0, 'no delivered row moved back');
    // In flight at each fault: at most the message and the answer awaiting its commit, per connection.
    assert.ok(
      r.unconfirmed <= r.faults.length * 2 * 4 * 2,
      `${r.unconfirmed} unconfirmed after ${r.faults.length} faults`,
    );
    if (r.takeoverSeconds !== null) assert.ok(r.takeoverSeconds < 15, `taken over after ${r.takeoverSeconds} s`);
  },
);
