import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startGateway, type TestGateway } from '../../test/helpers';

let gw: TestGateway;
before(async () => {
  gw = await startGateway();
});
after(() => gw.close());

it('serves many concurrent requests, transactions included, without errors (PGlite is one connection)', async () => {
  const owner = await gw.login('acmeOwner');
  const admin = await gw.login('admin');
  await gw.post('/v1/auth/reset-request', { email: 'owner@lab.test' });
  const mail = await gw.waitForMail('owner@lab.test', /reset/i);
  const [userId, token] = (/\/reset\/([^/\s]+)\/(\S+)/.exec(mail.text) ?? []).slice(1);
  const work: Promise<number>[] = [];
  for (let i = 0; i < 15; i++) {
    work.push(gw.post('/v1/auth/verify', { token: owner }).then((r) => r.status));
    work.push(gw.get('/v1/users', owner).then((r) => r.status));
    work.push(gw.get('/v1/tenants?includeOwner=true', admin).then((r) => r.status));
  }
  // Sign-ins racing on one account from an address it never used: a check counts as a failure until
  // it succeeds (auth/guess-policy.ts), so more than the free failures (3) at once may be told to wait.
  for (let i = 0; i < 3; i++)
    work.push(
      gw.post('/v1/auth/login', { email: 'staff@acme.test', password: 'staff-pass-2026' }).then((r) => r.status),
    );
  // Two racing uses of one reset link: exactly one wins.
  const reset = () =>
    gw
      .post('/v1/auth/reset', { user_id: userId, reset_token: token, password: 'raced-pass-2026' })
      .then((r) => r.status);
  const [a, b, ...rest] = await Promise.all([reset(), reset(), ...work]);
  assert.deepEqual([a, b].sort(), [200, 400]);
  assert.ok(
    rest.every((s) => s === 200),
    rest.join(','),
  );
});
