import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import type { SessionUser } from '../contracts';
import { loginAttempts, oneTimeTokens, users } from '../db/schema';
import { type ErrorBody, linkIn, startGateway, type TestGateway } from '../../test/helpers';

let gw: TestGateway;
before(async () => {
  gw = await startGateway({ CONSOLE_URL: 'http://console.example:3000', TRUST_PROXY: '1' });
});
after(() => gw.close());

const resetLinkPrefix = 'http://console.example:3000/reset/';

/** user_id and token from `<console>/reset/<user_id>/<token>`. */
function parseResetLink(link: string) {
  const [userId, token] = link.slice(resetLinkPrefix.length).split('/');
  assert.ok(userId && token, link);
  return { userId: decodeURIComponent(userId), token: decodeURIComponent(token) };
}

describe('password reset', () => {
  it('answers the same for known and unknown e-mails', async () => {
    const known = await gw.post<{ message: string }>('/v1/auth/reset-request', { email: 'owner@lab.test' });
    const unknown = await gw.post<{ message: string }>('/v1/auth/reset-request', { email: 'nobody@lab.test' });
    assert.equal(known.status, 200);
    assert.equal(unknown.status, 200);
    assert.equal(known.text, unknown.text);
    await gw.waitForMail('owner@lab.test', /reset/i);
    assert.ok(!(await gw.mails()).some((m) => m.to.includes('nobody@lab.test')));
  });

  it('works end to end through the outbox, once; old sessions end; the link cannot be reused', async () => {
    const oldToken = await gw.login('basicOwner');
    assert.equal((await gw.post('/v1/auth/reset-request', { email: 'Owner@Basic.test' })).status, 200);
    const mail = await gw.waitForMail('owner@basic.test', /reset/i);
    const { userId, token } = parseResetLink(linkIn(mail, resetLinkPrefix));

    const weak = await gw.post<ErrorBody>('/v1/auth/reset', { user_id: userId, reset_token: token, password: 'short' });
    assert.equal(weak.status, 400);
    assert.ok(weak.body.errors?.password?.length);
    // NIST SP 800-63B: repetitive and commonly used passwords are refused, with the reason.
    for (const [password, reason] of [
      ['aaaaaaaaaa', /^Repeated characters like "aaa" are easy to guess\./],
      ['password1234', /passwords commonly used on other websites\./],
    ] as const) {
      const easy = await gw.post<ErrorBody>('/v1/auth/reset', { user_id: userId, reset_token: token, password });
      assert.equal(easy.status, 400, easy.text);
      assert.deepEqual(Object.keys(easy.body.errors ?? {}), ['password']);
      assert.match(easy.body.errors?.password?.[0] ?? '', reason);
    }

    const body = { user_id: userId, reset_token: token, password: 'brand-new-pass-2026' };
    const done = await gw.post<{ message: string }>('/v1/auth/reset', body);
    assert.equal(done.status, 200, done.text);
    assert.equal(typeof done.body.message, 'string');

    const again = await gw.post<ErrorBody>('/v1/auth/reset', { ...body, password: 'another-new-pass-2026' });
    assert.equal(again.status, 400);
    assert.ok(again.body.errors?.reset_token?.length);

    assert.equal(
      (await gw.post('/v1/auth/login', { email: 'owner@basic.test', password: 'basic-pass-2026' })).status,
      401,
    );
    assert.equal(
      (await gw.post('/v1/auth/login', { email: 'owner@basic.test', password: 'brand-new-pass-2026' })).status,
      200,
    );
    assert.equal(
      (await gw.post('/v1/auth/verify', { token: oldToken })).status,
      401,
      'sessions from before the reset end',
    );
  });

  it('voids older reset links when one is used', async () => {
    await gw.post('/v1/auth/reset-request', { email: 'staff@acme.test' });
    const first = parseResetLink(linkIn(await gw.waitForMail('staff@acme.test', /reset/i, 1), resetLinkPrefix));
    await gw.post('/v1/auth/reset-request', { email: 'staff@acme.test' });
    const second = parseResetLink(linkIn(await gw.waitForMail('staff@acme.test', /reset/i, 2), resetLinkPrefix));
    assert.notEqual(first.token, second.token);
    const use = (t: string) =>
      gw.post('/v1/auth/reset', { user_id: second.userId, reset_token: t, password: 'staff-new-pass-2026' });
    assert.equal((await use(second.token)).status, 200);
    assert.equal((await use(first.token)).status, 400);
  });

  it('refuses a wrong token, a token of another user and an expired token', async () => {
    await gw.post('/v1/auth/reset-request', { email: 'owner@acme.test' });
    const { userId, token } = parseResetLink(
      linkIn(await gw.waitForMail('owner@acme.test', /reset/i), resetLinkPrefix),
    );
    const reset = (user_id: string, reset_token: string) =>
      gw.post<ErrorBody>('/v1/auth/reset', { user_id, reset_token, password: 'whatever-pass-2026' });
    assert.equal((await reset(userId, `${token}x`)).status, 400);
    assert.equal((await reset('00000000-0000-4000-8000-000000000000', token)).status, 400);
    assert.equal((await reset('not-a-uuid', token)).status, 400);
    await gw.handle.db
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oneTimeTokens.userId, userId));
    const expired = await reset(userId, token);
    assert.equal(expired.status, 400);
    assert.ok(expired.body.errors?.reset_token?.length);
  });
});

describe('password reset limits', () => {
  const from = (address: string) => ({ 'x-forwarded-for': address });
  const reset = (user_id: string, reset_token: string, address: string, password = 'whatever-pass-2026') =>
    gw.post<ErrorBody>('/v1/auth/reset', { user_id, reset_token, password }, null, from(address));

  it('refuses the 21st attempt from one address and the 11th for one user within the hour (429)', async () => {
    const someone = '00000000-0000-4000-8000-00000000aaaa';
    for (let i = 0; i < 20; i++) {
      const r = await reset(`00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, `wrong-${i}`, '10.7.0.1');
      assert.equal(r.status, 400, r.text);
    }
    const held = await reset(someone, 'wrong', '10.7.0.1');
    assert.equal(held.status, 429);
    assert.ok(Number(held.headers.get('retry-after')) > 0);
    for (let i = 0; i < 10; i++) assert.equal((await reset(someone, `wrong-${i}`, `10.7.1.${i}`)).status, 400);
    assert.equal((await reset(someone, 'wrong', '10.7.2.1')).status, 429, 'per user, from any address');
  });

  it('a reset from an address lets the owner sign in there while strangers get only sign-in links', async () => {
    const email = 'owner@acme.test';
    const login = (password: string, address: string) =>
      gw.post('/v1/auth/login', { email, password }, null, from(address));
    // Strangers use up their share of guesses (delays waited out by ageing the failures).
    for (let i = 0; i < 7; i++) {
      assert.equal((await login(`guess-${i}`, `10.8.0.${i}`)).status, 401);
      await gw.handle.db
        .update(loginAttempts)
        .set({ createdAt: sql`${loginAttempts.createdAt} - interval '3 minutes'` })
        .where(eq(loginAttempts.email, email));
    }
    assert.equal((await login('owner-pass-2026', '10.8.1.1')).status, 202, 'a link for strangers, no session');
    await gw.post('/v1/auth/reset-request', { email });
    const { userId, token } = parseResetLink(linkIn(await gw.waitForMail(email, /reset/i, 2), resetLinkPrefix));
    assert.equal((await reset(userId, token, '10.8.1.1', 'acme-new-pass-2026')).status, 200);
    assert.equal((await login('acme-new-pass-2026', '10.8.1.1')).status, 200, 'the reset address is known now');
    assert.equal((await login('acme-new-pass-2026', '10.8.2.1')).status, 202, 'other strangers still get links');
  });
});

describe('e-mail confirmation', () => {
  it('resends a link to an unconfirmed user, confirms once, and refuses when already confirmed', async () => {
    await gw.handle.db.update(users).set({ emailConfirmedAt: null }).where(eq(users.email, 'owner@lab.test'));
    gw.sessionsChanged();
    const token = await gw.login('labOwner');
    const sent = await gw.request<{ message: string }>('/v1/auth/resend-confirmation', { method: 'POST', token });
    assert.equal(sent.status, 200, sent.text);
    const mail = await gw.waitForMail('owner@lab.test', /confirm/i);
    const link = new URL(linkIn(mail, 'http://console.example:3000/confirm-email?'));
    const userId = link.searchParams.get('user_id') ?? '';
    const confirmToken = link.searchParams.get('token') ?? '';
    const me = await gw.post<{ user: SessionUser }>('/v1/auth/verify', { token });
    assert.equal(userId, me.body.user._id);

    const bad = await gw.post<ErrorBody>('/v1/auth/confirm-email', { user_id: userId, token: 'nope' });
    assert.equal(bad.status, 400);
    assert.ok(bad.body.errors?.token?.length);

    const ok = await gw.post('/v1/auth/confirm-email', { user_id: userId, token: confirmToken });
    assert.equal(ok.status, 200, ok.text);
    const [row] = await gw.handle.db.select().from(users).where(eq(users.id, userId));
    assert.ok(row?.emailConfirmedAt instanceof Date);

    assert.equal(
      (await gw.post('/v1/auth/confirm-email', { user_id: userId, token: confirmToken })).status,
      400,
      'single use',
    );
    const already = await gw.request<ErrorBody>('/v1/auth/resend-confirmation', { method: 'POST', token });
    assert.equal(already.status, 409);
    assert.equal((await gw.request('/v1/auth/resend-confirmation', { method: 'POST' })).status, 401);
  });
});
