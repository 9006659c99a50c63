import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SessionUser } from '../contracts';
import { type ErrorBody, startGateway, type TestGateway } from '../../test/helpers';
import { NOT_WHILE_IMPERSONATING, WRONG_CURRENT_PASSWORD } from './change-password';

let gw: TestGateway;
before(async () => {
  gw = await startGateway({ TRUST_PROXY: '1' });
});
after(() => gw.close());

const change = (token: string, current: string, next: string, ip = '10.9.0.1') =>
  gw.post<{ token: string } & ErrorBody>(
    '/v1/auth/change-password',
    { current_password: current, new_password: next },
    token,
    { 'x-forwarded-for': ip },
  );

describe('change password', () => {
  it('checks the current password, ends every other session and keeps this one with a new token', async () => {
    const here = await gw.login('basicOwner');
    const elsewhere = await gw.login('basicOwner');
    const wrong = await change(here, 'not-my-password', 'basic-new-pass-2026');
    assert.equal(wrong.status, 400);
    assert.deepEqual(wrong.body.errors, { current_password: [WRONG_CURRENT_PASSWORD] });
    const weak = await change(here, 'basic-pass-2026', 'short');
    assert.equal(weak.status, 400);
    assert.deepEqual(Object.keys(weak.body.errors ?? {}), ['new_password']);
    assert.equal((await gw.post('/v1/auth/verify', { token: elsewhere })).status, 200, 'nothing changed yet');

    const done = await change(here, 'basic-pass-2026', 'basic-new-pass-2026');
    assert.equal(done.status, 200, done.text);
    const next = await gw.post<{ user: SessionUser }>('/v1/auth/verify', { token: done.body.token });
    assert.equal(next.status, 200);
    assert.equal(next.body.user.email, 'owner@basic.test');
    assert.equal((await gw.post('/v1/auth/verify', { token: here })).status, 401);
    assert.equal((await gw.post('/v1/auth/verify', { token: elsewhere })).status, 401);
    const old = await gw.post('/v1/auth/login', { email: 'owner@basic.test', password: 'basic-pass-2026' });
    assert.equal(old.status, 401);
    const fresh = await gw.post('/v1/auth/login', { email: 'owner@basic.test', password: 'basic-new-pass-2026' });
    assert.equal(fresh.status, 200);
  });

  it('refuses a repetitive, common or personal new password with the reason on new_password (NIST SP 800-63B)', async () => {
    const token = await gw.login('labOwner');
    const cases: [string, RegExp][] = [
      ['aaaaaaaaaa', /^Repeated characters like "aaa" are easy to guess\./],
      ['password1234', /passwords commonly used on other websites\./],
      ['1234567890', /commonly used|Sequences/],
      ['qwertyuiopas', /keyboard|commonly used/],
      ['owner@lab.test', /^Parts of your name, e-mail address or community name are easy to guess\./],
    ];
    for (const [password, reason] of cases) {
      const r = await change(token, 'lab-pass-2026', password, '10.9.0.5');
      assert.equal(r.status, 400, `${password}: ${r.text}`);
      assert.deepEqual(Object.keys(r.body.errors ?? {}), ['new_password'], password);
      const [message = ''] = r.body.errors?.new_password ?? [];
      assert.match(message, reason, password);
      assert.equal(r.body.message, message);
    }
    assert.equal(
      (await gw.post('/v1/auth/login', { email: 'owner@lab.test', password: 'lab-pass-2026' })).status,
      200,
      'the password did not change, and the refusals spent no guesses',
    );
  });

  it('counts wrong current passwords like wrong sign-ins: a stranger address is held back', async () => {
    const token = await gw.login('acmeStaff');
    let last = 0;
    for (let i = 0; i < 12 && last !== 429; i += 1) {
      last = (await change(token, `wrong-${i}`, 'staff-new-pass-2026', '10.9.0.77')).status;
    }
    assert.equal(last, 429);
    // The limit holds for signing in from that address too: the guesses add up.
    const signIn = await gw.request('/v1/auth/login', {
      body: { email: 'staff@acme.test', password: 'staff-pass-2026' },
      headers: { 'x-forwarded-for': '10.9.0.77' },
    });
    assert.equal(signIn.status, 429);
  });

  it('is refused while impersonating and without a session', async () => {
    const owner = await gw.login('acmeOwner');
    const staffId = (await gw.post<{ user: SessionUser }>('/v1/auth/verify', { token: await gw.login('acmeStaff') }))
      .body.user._id;
    const imp = await gw.post<{ token: string }>('/v1/auth/impersonate', { user_id: staffId }, owner);
    assert.equal(imp.status, 200, imp.text);
    const r = await change(imp.body.token, 'staff-pass-2026', 'hijacked-pass-2026');
    assert.equal(r.status, 403);
    assert.equal(r.body.message, NOT_WHILE_IMPERSONATING);
    assert.equal((await change('', 'a', 'b'.repeat(12))).status, 401);
  });
});
