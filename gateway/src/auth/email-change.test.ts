import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Profile, SessionUser } from '../contracts';
import { call } from '../../test/audience-helpers';
import { type ErrorBody, linkIn, startGateway, type TestGateway } from '../../test/helpers';
import { WRONG_CURRENT_PASSWORD } from './change-password';
import { EMAIL_CHANGED, EMAIL_IN_USE, EMAIL_NOT_WHILE_IMPERSONATING, SAME_EMAIL } from './email-change';

let gw: TestGateway;
before(async () => {
  gw = await startGateway({ CONSOLE_URL: 'http://console.example:3000' });
});
after(() => gw.close());

const CONFIRM = 'http://console.example:3000/confirm-email?';
const change = (token: string, body: unknown) =>
  call<Profile & ErrorBody>(gw, 'POST', '/v1/profile/email', token, body);
const signIn = (email: string, password: string) => gw.post<{ token: string }>('/v1/auth/login', { email, password });
function confirmationOf(link: string) {
  const url = new URL(link);
  return { user_id: url.searchParams.get('user_id') ?? '', token: url.searchParams.get('token') ?? '' };
}

describe('changing the sign-in e-mail address (Your Profile)', () => {
  it('keeps the old address until the link sent to the new one is opened, then signs in with the new one only', async () => {
    const token = await gw.login('labOwner');
    const asked = await change(token, { email: ' Lena.New@Lab.TEST ', current_password: 'lab-pass-2026' });
    assert.equal(asked.status, 200, asked.text);
    assert.deepEqual([asked.body.email, asked.body.pending_email], ['owner@lab.test', 'lena.new@lab.test']);
    assert.equal((await signIn('owner@lab.test', 'lab-pass-2026')).status, 200, 'the old address still signs in');

    const mail = await gw.waitForMail('lena.new@lab.test', /new e-mail address/i);
    const confirmation = confirmationOf(linkIn(mail, CONFIRM));
    const done = await gw.post<{ message: string }>('/v1/auth/confirm-email', confirmation);
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.message, EMAIL_CHANGED);

    const notice = await gw.waitForMail('owner@lab.test', /sign-in e-mail address was changed/i);
    assert.match(notice.text, /lena\.new@lab\.test/);
    assert.equal((await signIn('owner@lab.test', 'lab-pass-2026')).status, 401, 'the old address no longer signs in');
    assert.equal((await signIn('lena.new@lab.test', 'lab-pass-2026')).status, 200);
    const me = await gw.post<{ user: SessionUser }>('/v1/auth/verify', { token });
    assert.equal(me.body.user.email, 'lena.new@lab.test', 'the session follows at once');
    const profile = await gw.get<Profile>('/v1/profile', token);
    assert.deepEqual([profile.body.email, profile.body.pending_email], ['lena.new@lab.test', null]);
    assert.equal((await gw.post('/v1/auth/confirm-email', confirmation)).status, 400, 'the link works once');

    // Back to the seed's address, so later tests sign in as before.
    await change(token, { email: 'owner@lab.test', current_password: 'lab-pass-2026' });
    const back = await gw.waitForMail('owner@lab.test', /new e-mail address/i);
    assert.equal((await gw.post('/v1/auth/confirm-email', confirmationOf(linkIn(back, CONFIRM)))).status, 200);
  });

  it('refuses a wrong password, its own address, an address in use and bad input, storing nothing', async () => {
    const token = await gw.login('acmeStaff');
    const cases: [unknown, string, string?][] = [
      [{ email: 'x@acme.test', current_password: 'wrong-password' }, 'current_password', WRONG_CURRENT_PASSWORD],
      [{ email: 'STAFF@acme.test', current_password: 'staff-pass-2026' }, 'email', SAME_EMAIL],
      [{ email: 'owner@acme.test', current_password: 'staff-pass-2026' }, 'email', EMAIL_IN_USE],
      [{ email: 'not an address', current_password: 'staff-pass-2026' }, 'email'],
      [{ email: 'x@acme.test' }, 'current_password'],
    ];
    for (const [body, field, message] of cases) {
      const r = await change(token, body);
      assert.equal(r.status, 400, `${JSON.stringify(body)} -> ${r.text}`);
      assert.ok(r.body.errors?.[field], `${JSON.stringify(body)} -> ${r.text}`);
      if (message) assert.deepEqual(r.body.errors?.[field], [message]);
    }
    assert.equal((await gw.get<Profile>('/v1/profile', token)).body.pending_email, null);
  });

  it('a newer request or a cancel kills the earlier link; someone taking the address first wins', async () => {
    const token = await gw.login('basicOwner');
    await change(token, { email: 'first@basic.test', current_password: 'basic-pass-2026' });
    const first = confirmationOf(linkIn(await gw.waitForMail('first@basic.test', /new e-mail address/i), CONFIRM));
    await change(token, { email: 'second@basic.test', current_password: 'basic-pass-2026' });
    const second = confirmationOf(linkIn(await gw.waitForMail('second@basic.test', /new e-mail address/i), CONFIRM));
    assert.equal((await gw.post('/v1/auth/confirm-email', first)).status, 400, 'the first link died');

    const cancelled = await call<Profile>(gw, 'DELETE', '/v1/profile/email', token);
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.body.pending_email, null);
    assert.equal((await gw.post('/v1/auth/confirm-email', second)).status, 400, 'cancelled');

    await change(token, { email: 'taken@basic.test', current_password: 'basic-pass-2026' });
    const taken = confirmationOf(linkIn(await gw.waitForMail('taken@basic.test', /new e-mail address/i), CONFIRM));
    // Another member takes the address before the link is opened (an invitation accepted meanwhile).
    const staff = await gw.login('acmeStaff');
    await change(staff, { email: 'taken@basic.test', current_password: 'staff-pass-2026' });
    const staffLink = linkIn(await gw.waitForMail('taken@basic.test', /new e-mail address/i, 2), CONFIRM);
    assert.equal((await gw.post('/v1/auth/confirm-email', confirmationOf(staffLink))).status, 200);
    const late = await gw.post<ErrorBody>('/v1/auth/confirm-email', taken);
    assert.equal(late.status, 400, late.text);
    assert.deepEqual(late.body.errors, { token: [EMAIL_IN_USE] });
    assert.equal((await gw.get<Profile>('/v1/profile', token)).body.email, 'owner@basic.test', 'nothing changed');
    // The staff member goes back to the seed's address.
    await change(staff, { email: 'staff@acme.test', current_password: 'staff-pass-2026' });
    const back = await gw.waitForMail('staff@acme.test', /new e-mail address/i);
    assert.equal((await gw.post('/v1/auth/confirm-email', confirmationOf(linkIn(back, CONFIRM)))).status, 200);
  });

  it('is refused while impersonating and without a session', async () => {
    const owner = await gw.login('acmeOwner');
    const staffId = (await gw.post<{ user: SessionUser }>('/v1/auth/verify', { token: await gw.login('acmeStaff') }))
      .body.user._id;
    const imp = await gw.post<{ token: string }>('/v1/auth/impersonate', { user_id: staffId }, owner);
    assert.equal(imp.status, 200, imp.text);
    const r = await change(imp.body.token, { email: 'hijack@evil.test', current_password: 'x' });
    assert.equal(r.status, 403);
    assert.equal(r.body.message, EMAIL_NOT_WHILE_IMPERSONATING);
    assert.equal((await change('', { email: 'a@b.test', current_password: 'x' })).status, 401);
  });
});
