import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import type { SessionUser } from '../contracts';
import { oneTimeTokens, users } from '../db/schema';
import { type ErrorBody, linkIn, startGateway, type TestGateway } from '../../test/helpers';

let gw: TestGateway;
before(async () => {
  gw = await startGateway({ CONSOLE_URL: 'http://console.example:3000' });
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

describe('e-mail confirmation', () => {
  it('resends a link to an unconfirmed user, confirms once, and refuses when already confirmed', async () => {
    await gw.handle.db.update(users).set({ emailConfirmedAt: null }).where(eq(users.email, 'owner@lab.test'));
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
