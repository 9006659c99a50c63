import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ErrorBody, LOGINS, startGateway, type TestGateway } from '../../test/helpers';

// Low limits; each test signs in from its own client address (X-Forwarded-For, trusted here).
let gw: TestGateway;
before(async () => {
  gw = await startGateway({ LOGIN_THROTTLE_ACCOUNT_MAX: '3', LOGIN_THROTTLE_ADDRESS_MAX: '6', TRUST_PROXY: '1' });
});
after(() => gw.close());

const from = (address: string) => ({ 'x-forwarded-for': address });
const attempt = (email: string, password: string, address: string) =>
  gw.post<ErrorBody & { token?: string }>('/v1/auth/login', { email, password }, null, from(address));

describe('login throttling', () => {
  it('locks an account after 3 failures, even for the right password, with Retry-After', async () => {
    for (let i = 0; i < 3; i++)
      assert.equal((await attempt('owner@basic.test', 'wrong-password', '10.0.0.1')).status, 401);
    const locked = await attempt('owner@basic.test', LOGINS.basicOwner.password, '10.0.0.2');
    assert.equal(locked.status, 429);
    assert.match(locked.body.message, /wait/i);
    const retryAfter = Number(locked.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= 15 * 60, `Retry-After ${retryAfter}`);
    // Other accounts are not affected.
    assert.equal((await attempt('owner@lab.test', LOGINS.labOwner.password, '10.0.0.2')).status, 200);
  });

  it('throttles unknown e-mails the same way (no enumeration through 429)', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await attempt('ghost@acme.test', 'x', '10.0.1.1')).status, 401);
    assert.equal((await attempt('ghost@acme.test', 'x', '10.0.1.2')).status, 429);
  });

  it('clears the account counter on a successful sign-in', async () => {
    const a = '10.0.2.1';
    for (let i = 0; i < 2; i++) assert.equal((await attempt('staff@acme.test', 'wrong-password', a)).status, 401);
    assert.equal((await attempt('staff@acme.test', LOGINS.acmeStaff.password, a)).status, 200);
    const b = '10.0.2.2';
    for (let i = 0; i < 2; i++) assert.equal((await attempt('staff@acme.test', 'wrong-password', b)).status, 401);
    assert.equal((await attempt('staff@acme.test', LOGINS.acmeStaff.password, b)).status, 200);
  });

  it('locks a client address after 6 failures across accounts', async () => {
    const address = '10.0.3.1';
    for (let i = 0; i < 6; i++) {
      assert.equal((await attempt(`someone${i}@example.test`, 'wrong', address)).status, 401);
    }
    const locked = await attempt('owner@acme.test', LOGINS.acmeOwner.password, address);
    assert.equal(locked.status, 429);
    assert.ok(Number(locked.headers.get('retry-after')) > 0);
    // The same account from another address is fine.
    assert.equal((await attempt('owner@acme.test', LOGINS.acmeOwner.password, '10.0.3.2')).status, 200);
  });

  it('does not let parallel guesses slip past the account limit', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => attempt('admin@console.test', 'wrong-password', `10.0.4.${i + 1}`)),
    );
    const failures = results.filter((r) => r.status === 401).length;
    assert.ok(failures <= 3, `${failures} guesses were checked`);
    assert.ok(results.every((r) => r.status === 401 || r.status === 429));
  });
});
