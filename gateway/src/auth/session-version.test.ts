// Spec section 4, refreshing permissions: every answer to a signed-in caller carries the session's
// access version (X-Session-Version), the same on the session check as on any other route, and a new
// one once the caller's role, permissions, plan or tenant changed; the console re-verifies on a change.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema';
import { startGateway, type TestGateway } from '../../test/helpers';

let gw: TestGateway;
before(async () => {
  gw = await startGateway();
});
after(() => gw.close());

const versionOf = (headers: Headers) => headers.get('x-session-version');

describe('X-Session-Version', () => {
  it('is the same on verify and on other routes, and changes with the permissions', async () => {
    const token = await gw.login('acmeStaff');
    const verified = await gw.post('/v1/auth/verify', { token });
    assert.equal(verified.status, 200, verified.text);
    const before = versionOf(verified.headers);
    assert.match(before ?? '', /^[A-Za-z0-9_-]{16}$/);
    const profile = await gw.get('/v1/profile', token);
    assert.equal(versionOf(profile.headers), before);
    // A refusal is decided with the same session, and says so too.
    const refused = await gw.get('/v1/tenants', token);
    assert.equal(refused.status, 403);
    assert.equal(versionOf(refused.headers), before);

    await gw.handle.db
      .update(users)
      .set({ permissions: ['manage_contacts', 'view_engagement_emails', 'templates'] })
      .where(eq(users.email, 'staff@acme.test'));
    gw.sessionsChanged();
    const after = await gw.get('/v1/profile', token);
    assert.notEqual(versionOf(after.headers), before);
    const again = await gw.post('/v1/auth/verify', { token });
    assert.equal(versionOf(again.headers), versionOf(after.headers));
  });

  it('differs between users of different access, and is absent without a session', async () => {
    const owner = await gw.get('/v1/profile', await gw.login('acmeOwner'));
    const global = await gw.get('/v1/profile', await gw.login('global'));
    assert.notEqual(versionOf(owner.headers), versionOf(global.headers));
    const anonymous = await gw.post('/v1/auth/login', { email: 'nobody@acme.test', password: 'wrong-pass-2026' });
    assert.equal(versionOf(anonymous.headers), null);
  });

  it('is exposed to the console across origins', async () => {
    const origin = gw.config.consoleOrigins[0];
    assert.ok(origin, 'a console origin is configured');
    const r = await gw.request('/v1/profile', {
      token: await gw.login('acmeOwner'),
      headers: { origin },
    });
    assert.match(r.headers.get('access-control-expose-headers') ?? '', /X-Session-Version/i);
  });
});
