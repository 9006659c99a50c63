// The guessing limits over HTTP with the default policy (delays per account and address from the 4th
// failure; 10 failures per account and hour from all addresses, 7 of them for strangers, then sign-in
// links): each test signs in from its own client addresses (X-Forwarded-For, trusted here). Time is
// moved by ageing the stored failures, never by waiting.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { loginAttempts, oneTimeTokens } from '../db/schema';
import { openDatabase } from '../db/index';
import { storageCapabilities } from '../db/storage';
import type { SessionUser } from '../contracts';
import { type ErrorBody, linkIn, LOGINS, startGateway, type TestGateway } from '../../test/helpers';
import { trustProxyOf } from '../config';
import { LoginThrottle } from './throttle';

let gw: TestGateway;
before(async () => {
  gw = await startGateway({ TRUST_PROXY: '1', CONSOLE_URL: 'http://console.example:3000' });
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
 * Guesses wrong passwords from new addresses (one each: a distributed attack) until the answers stop
 * telling wrong from right (202, a sign-in link): the number of passwords answered 401 before that.
 */
async function exhaust(email: string, prefix: string): Promise<number> {
  let answered = 0;
  for (let i = 0; i < 40; i++) {
    const r = await attempt(email, `wrong-guess-${i}`, `${prefix}.${i}`);
    if (r.status === 401) answered++;
    else if (r.status === 202) return answered;
    else assert.fail(`unexpected ${r.status} ${r.text}`);
  }
  return assert.fail('the account never switched to sign-in links');
}

const LINK_SENT =
  'There have been too many failed sign-in attempts on this account. If the e-mail address and password are ' +
  'correct, we have sent a sign-in link to that address. It expires in 15 minutes.';
const LINK_PREFIX = 'http://console.example:3000/sign-in/';

/** user_id and token of the n-th sign-in link e-mailed to `email`. */
async function signInLink(email: string, n = 1): Promise<{ user_id: string; token: string }> {
  const mail = await gw.waitForMail(email, /sign-in link/i, n);
  const [userId = '', token = ''] = linkIn(mail, LINK_PREFIX).slice(LINK_PREFIX.length).split('/');
  return { user_id: decodeURIComponent(userId), token: decodeURIComponent(token) };
}

const useLink = (body: { user_id: string; token: string }, address: string) =>
  gw.post<ErrorBody & { token?: string }>('/v1/auth/sign-in-link', body, null, from(address));

async function signInLinksTo(email: string): Promise<number> {
  return (await gw.mails()).filter((m) => m.to.includes(email) && /sign-in link/i.test(m.subject)).length;
}

describe('sign-in guessing limits', () => {
  it('one address guessing holds back that address only: the owner at a clean address signs in', async () => {
    // The owner is never locked out by another address (docs/auth.md, "Sign-in limits"): six wrong passwords from one address, then the right one from another.
    const { email, password } = LOGINS.labOwner;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await attempt(email, `wrong-${i}`, '10.6.0.1')).status);
    assert.deepEqual(statuses, [401, 401, 401, 429, 429, 429]);
    const owner = await attempt(email, password, '10.6.0.2');
    assert.equal(owner.status, 200, owner.text);
    assert.equal((await attempt(email, password, '10.6.0.1')).status, 429, 'the guessing address still waits');
  });

  it('the client address is the proxy-written X-Forwarded-For entry: a client-written one is no fresh address', async () => {
    const email = 'spoofer-target@acme.test';
    for (let i = 0; i < 3; i++) assert.equal((await attempt(email, `wrong-${i}`, '10.6.2.1')).status, 401);
    // TRUST_PROXY=1: one proxy of ours, which appends the address it saw; the entries before it are the client's.
    const spoofed = await gw.post<ErrorBody>('/v1/auth/login', { email, password: 'wrong-3' }, null, {
      'x-forwarded-for': '203.0.113.77, 10.6.2.1',
    });
    assert.equal(spoofed.status, 429, spoofed.text);
    assert.deepEqual(
      ['', '0', 'false', '1', 'true', '2', '10.0.0.0/8, 127.0.0.1'].map((v) => trustProxyOf(v)),
      [false, false, false, 1, 1, 2, ['10.0.0.0/8', '127.0.0.1']],
    );
  });

  it('a distributed attack: 7 wrong answers, then any password gets the same 202 and a right one a link', async () => {
    const { email, password } = LOGINS.basicOwner;
    assert.equal((await attempt(email, password, '10.1.0.1')).status, 200, 'the office address becomes known');
    assert.equal((await attempt(email, password, '10.1.0.2')).status, 200, 'so does home');

    assert.equal(await exhaust(email, '10.9.0'), 7);
    const mailsBefore = await signInLinksTo(email);
    // From here a stranger's answer is the same for a wrong password, the right one and an unknown account.
    const wrong = await attempt(email, 'yet-another-guess', '10.9.1.1');
    const right = await attempt(email, password, '10.9.1.2');
    const unknown = await attempt('nobody-at-all@basic.test', 'whatever-it-is', '10.9.1.3');
    for (const r of [wrong, right]) {
      assert.equal(r.status, 202, r.text);
      assert.deepEqual(r.body, { message: LINK_SENT });
    }
    assert.equal(right.text, wrong.text);
    assert.equal(right.headers.get('content-type'), wrong.headers.get('content-type'));
    assert.equal(unknown.status, 401, 'an account without failures answers as usual');

    // Only the right password sent a link; it signs in, once, and the address that used it is known.
    const link = await signInLink(email, mailsBefore + 1);
    assert.equal(await signInLinksTo(email), mailsBefore + 1, 'the wrong password sent nothing');
    const used = await useLink(link, '10.9.1.2');
    assert.equal(used.status, 200, used.text);
    const me = await gw.post<{ user: SessionUser }>('/v1/auth/verify', { token: used.body.token });
    assert.equal(me.body.user.email, email);
    const again = await useLink(link, '10.9.1.2');
    assert.equal(again.status, 400);
    assert.deepEqual(again.body.errors?.token, ['This sign-in link is invalid or has expired. Please sign in again.']);
    assert.equal((await attempt(email, password, '10.9.1.2')).status, 200, 'the link made the address known');

    // The owner, from an address that has not failed: in, during the attack.
    assert.equal((await attempt(email, password, '10.1.0.1')).status, 200);
    // Known addresses have 3 more than strangers; the two wrong passwords answered 202 above took two
    // (a wrong password is a failure whatever the answer): a typo at the office takes the last.
    assert.equal((await attempt(email, 'typo', '10.1.0.1')).status, 401);
    // Ten wrong passwords this hour: every password gets the link answer, known addresses included.
    for (const address of ['10.1.0.1', '10.1.0.2', '10.9.2.1']) {
      assert.equal((await attempt(email, password, address)).status, 202, address);
    }
    // An hour later the owner signs in with the password again.
    await age(email, 60 * 60);
    assert.equal((await attempt(email, password, '10.1.0.1')).status, 200);
  });

  it('a sign-in link works for 15 minutes only, and only with its own user', async () => {
    const { email, password } = LOGINS.acmeStaff;
    assert.equal(await exhaust(email, '10.7.0'), 7);
    assert.equal((await attempt(email, password, '10.7.1.1')).status, 202);
    const link = await signInLink(email);
    const other = await gw.post<{ user: SessionUser }>('/v1/auth/verify', { token: await gw.login('acmeOwner') });
    assert.equal((await useLink({ ...link, user_id: other.body.user._id }, '10.7.1.1')).status, 400);
    assert.equal((await useLink({ ...link, token: `${link.token}x` }, '10.7.1.1')).status, 400);
    await gw.handle.db
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oneTimeTokens.purpose, 'sign_in_link'));
    assert.equal((await useLink(link, '10.7.1.1')).status, 400, 'expired');
  });

  it('delays grow per address: free typos, then 15 s, then 30 s; an unknown e-mail gets exactly the same answers', async () => {
    const run = async (email: string, address: string) => {
      const seen: string[] = [];
      for (let i = 0; i < 3; i++) seen.push(String((await attempt(email, 'nope', address)).status));
      for (const expected of [15, 30, 60]) {
        const held = await attempt(email, 'nope', address);
        seen.push(`${held.status}`);
        const wait = retryAfter(held);
        assert.ok(wait > expected - 5 && wait <= expected, `${email}: Retry-After ${wait}, expected ${expected}`);
        await age(email, wait);
        seen.push(String((await attempt(email, 'nope', address)).status));
      }
      return seen;
    };
    const known = await run('staff@lab.test', '10.2.0.1');
    const unknown = await run('nobody-here@acme.test', '10.2.1.1');
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
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(statuses, [...Array(5).fill(202), ...Array(7).fill(401)], 'seven answered, then links');
  });

  it('two gateway processes on one database share the counts', async () => {
    // A second set of connections to the same database (one that belongs to this process: the same handle).
    const second = storageCapabilities(gw.handle.db).ownedByProcess ? gw.handle : await openDatabase(gw.config);
    try {
      const a = new LoginThrottle(gw.handle.db, gw.config.throttle);
      const b = new LoginThrottle(second.db, gw.config.throttle);
      const account = 'two-processes@example.test';
      const begun = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).begin(account, `10.5.0.${i + 1}`, { link: true })),
      );
      assert.equal(begun.filter((r) => 'mode' in r && r.mode === 'password').length, 7);
      assert.equal(begun.filter((r) => 'mode' in r && r.mode === 'link').length, 3);
      const withoutLinks = await b.begin(account, '10.5.1.1');
      assert.ok('retryAfterSeconds' in withoutLinks, 'a check that cannot send a link is refused instead');
      await age(account, 60 * 60);
      const held = await b.begin(account, '10.5.1.1');
      assert.ok('mode' in held && held.mode === 'password', 'an hour later: checked again');
    } finally {
      if (second !== gw.handle) await second.close();
    }
  });
});
