// The guessing limits over HTTP with the default policy (10 failures per account and hour, 7 of them
// for strangers, delays from the 4th): each test signs in from its own client addresses
// (X-Forwarded-For, trusted here). Time is moved by ageing the stored failures, never by waiting.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { loginAttempts } from '../db/schema';
import { openDatabase } from '../db/index';
import { storageCapabilities } from '../db/storage';
import { type ErrorBody, LOGINS, startGateway, type TestGateway } from '../../test/helpers';
import { LoginThrottle } from './throttle';

let gw: TestGateway;
before(async () => {
  gw = await startGateway({ TRUST_PROXY: '1' });
});
after(() => gw.close());

const from = (address: string) => ({ 'x-forwarded-for': address });
const attempt = (email: string, password: string, address: string) =>
  gw.post<ErrorBody & { token?: string }>('/v1/auth/login', { email, password }, null, from(address));
const retryAfter = (r: { headers: Headers }) => Number(r.headers.get('retry-after'));

/** Moves the account's stored failures `seconds` into the past (as if that much time went by). */
async function age(email: string, seconds: number): Promise<void> {
  await gw.handle.db
    .update(loginAttempts)
    .set({ createdAt: sql`${loginAttempts.createdAt} - make_interval(secs => ${seconds})` })
    .where(eq(loginAttempts.email, email));
}

/**
 * Guesses wrong passwords from new addresses, waiting out each delay, until the account refuses for
 * longer than a delay: the number of passwords checked (401s).
 */
async function exhaust(email: string, prefix: string): Promise<number> {
  let checked = 0;
  for (let i = 0; i < 40; i++) {
    const r = await attempt(email, `wrong-guess-${i}`, `${prefix}.${i}`);
    if (r.status === 401) checked++;
    else if (r.status === 429 && retryAfter(r) <= 15 * 60) await age(email, retryAfter(r));
    else if (r.status === 429) return checked;
    else assert.fail(`unexpected ${r.status} ${r.text}`);
  }
  return assert.fail('the account was never held');
}

describe('sign-in guessing limits', () => {
  it('strangers get 7 guesses an hour; the owner at a known address is let in; all together 10', async () => {
    const { email, password } = LOGINS.basicOwner;
    assert.equal((await attempt(email, password, '10.1.0.1')).status, 200, 'the office address becomes known');
    assert.equal((await attempt(email, password, '10.1.0.2')).status, 200, 'so does home');

    assert.equal(await exhaust(email, '10.9.0'), 7);
    const stranger = await attempt(email, password, '10.9.1.1');
    assert.equal(stranger.status, 429, 'the right password from a stranger is not even checked');
    assert.match(stranger.body.message, /^Too many sign-in attempts\. Please wait \d+ minutes and try again/);
    assert.ok(retryAfter(stranger) > 30 * 60 && retryAfter(stranger) <= 60 * 60, `Retry-After ${retryAfter(stranger)}`);

    // The owner, from an address that has not failed: in, during the attack.
    const owner = await attempt(email, password, '10.1.0.1');
    assert.equal(owner.status, 200, owner.text);

    // Known addresses share the 3 kept back: a typo at the office, then guesses from home.
    assert.equal((await attempt(email, 'typo', '10.1.0.1')).status, 401);
    assert.equal((await attempt(email, 'guess-1', '10.1.0.2')).status, 401);
    assert.equal((await attempt(email, 'guess-2', '10.1.0.2')).status, 401);
    // Ten wrong passwords this hour: nobody's password is checked any more, the right one included.
    for (const address of ['10.1.0.1', '10.1.0.2', '10.9.2.1']) {
      assert.equal((await attempt(email, password, address)).status, 429, address);
    }
    // An hour later the owner signs in again.
    await age(email, 60 * 60);
    assert.equal((await attempt(email, password, '10.1.0.1')).status, 200);
  });

  it('delays grow: free typos, then 15 s, then 30 s; an unknown e-mail gets exactly the same answers', async () => {
    const run = async (email: string, prefix: string) => {
      const seen: string[] = [];
      for (let i = 0; i < 3; i++) seen.push(String((await attempt(email, 'nope', `${prefix}.1`)).status));
      for (const expected of [15, 30, 60]) {
        const held = await attempt(email, 'nope', `${prefix}.1`);
        seen.push(`${held.status}`);
        const wait = retryAfter(held);
        assert.ok(wait > expected - 5 && wait <= expected, `${email}: Retry-After ${wait}, expected ${expected}`);
        await age(email, wait);
        seen.push(String((await attempt(email, 'nope', `${prefix}.2`)).status));
      }
      return seen;
    };
    const known = await run('staff@acme.test', '10.2.0');
    const unknown = await run('nobody-here@acme.test', '10.2.1');
    assert.deepEqual(known, ['401', '401', '401', '429', '401', '429', '401', '429', '401']);
    assert.deepEqual(unknown, known);
  });

  it('an office behind one address: a machine spraying passwords does not lock out its colleagues', async () => {
    const office = '10.3.0.1';
    const { email, password } = LOGINS.acmeOwner;
    assert.equal((await attempt(email, password, office)).status, 200);
    // 50 wrong passwords from the office on other accounts this hour.
    await gw.handle.db.insert(loginAttempts).values(
      Array.from({ length: 50 }, (_, i) => ({
        email: `sprayed${i}@example.test`,
        address: office,
        createdAt: new Date(),
      })),
    );
    assert.equal((await attempt(email, password, office)).status, 200, 'a colleague the account knows there');
    const stranger = await attempt('global@console.test', LOGINS.global.password, office);
    assert.equal(stranger.status, 429, 'an account that never signed in there waits');
    assert.equal((await attempt('global@console.test', LOGINS.global.password, '10.3.0.2')).status, 200);
  });

  it('parallel guesses do not slip past the limits', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => attempt('admin@console.test', 'wrong-password', `10.4.0.${i + 1}`)),
    );
    const checked = results.filter((r) => r.status === 401).length;
    assert.equal(checked, 3, 'three free failures, then the delay');
    assert.ok(results.every((r) => r.status === 401 || r.status === 429));
  });

  it('two gateway processes on one database share the counts', async () => {
    // A second set of connections to the same database (one that belongs to this process: the same handle).
    const second = storageCapabilities(gw.handle.db).ownedByProcess ? gw.handle : await openDatabase(gw.config);
    try {
      const a = new LoginThrottle(gw.handle.db, gw.config.throttle);
      const b = new LoginThrottle(second.db, gw.config.throttle);
      const account = 'two-processes@example.test';
      const begun = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).begin(account, `10.5.0.${i + 1}`)),
      );
      assert.equal(begun.filter((r) => 'attemptId' in r).length, 3);
      await age(account, 60 * 60);
      const held = await b.begin(account, '10.5.1.1');
      assert.ok('attemptId' in held, 'an hour later: checked again');
    } finally {
      if (second !== gw.handle) await second.close();
    }
  });
});
