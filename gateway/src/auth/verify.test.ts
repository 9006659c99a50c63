import { randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignJWT, UnsecuredJWT } from 'jose';
import { verifyToken } from './tokens';
import type { SessionUser } from '../contracts';
import { type ErrorBody, startGateway, type TestGateway } from '../../test/helpers';

let gw: TestGateway;
before(async () => {
  gw = await startGateway();
});
after(() => gw.close());

const verify = (token: string) => gw.post<{ user: SessionUser } & ErrorBody>('/v1/auth/verify', { token });

function claimsOf(token: string): Record<string, unknown> {
  const part = token.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
}

/** A token like the gateway's, with one thing changed. */
async function forge(
  sub: string,
  opts: { secret?: Uint8Array; alg?: string; iss?: string; aud?: string; iat?: number; exp?: number } = {},
) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ tid: null, role: 'tenant_admin', ver: 0 })
    .setProtectedHeader({ alg: opts.alg ?? 'HS256', typ: 'JWT' })
    .setSubject(sub)
    .setJti(randomUUID())
    .setIssuer(opts.iss ?? gw.config.jwtIssuer)
    .setAudience(opts.aud ?? gw.config.jwtAudience)
    .setIssuedAt(opts.iat ?? now)
    .setExpirationTime(opts.exp ?? now + 3600)
    .sign(opts.secret ?? gw.config.jwtSecret);
}

describe('POST /v1/auth/verify', () => {
  it('returns the session user of a valid token', async () => {
    const token = await gw.login('acmeOwner');
    const r = await verify(token);
    assert.equal(r.status, 200, r.text);
    const u = r.body.user;
    assert.equal(u.email, 'owner@acme.test');
    assert.equal(u.role, 'tenant_admin');
    assert.equal(u.tenant_name, 'Acme DAO');
    assert.equal(u.first_name, 'Alice');
    assert.equal(u.impersonator, null);
    assert.equal(u._id, claimsOf(token).sub);
    assert.equal(u.tenant_id, claimsOf(token).tid);
  });

  it('token claims: sub, tid, role, issuer, audience, 12 h expiry, HS256', async () => {
    const token = await gw.login('acmeStaff');
    const header = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8'));
    assert.equal(header.alg, 'HS256');
    const c = claimsOf(token);
    assert.equal(c.role, 'staff');
    assert.equal(c.iss, gw.config.jwtIssuer);
    assert.equal(c.aud, gw.config.jwtAudience);
    assert.equal(Number(c.exp) - Number(c.iat), 12 * 3600);
    assert.equal(c.imp, undefined);
    assert.equal(c.ver, 0);
  });

  it('refuses a tampered token', async () => {
    const token = await gw.login('acmeStaff');
    const [h, p, s] = token.split('.');
    const payload = { ...claimsOf(token), role: 'super_admin' };
    const tampered = `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s}`;
    const r = await verify(tampered);
    assert.equal(r.status, 401);
    assert.deepEqual(Object.keys(r.body), ['message']);
    const flipped = `${h}.${p}.${(s ?? '').slice(0, -2)}${(s ?? '').endsWith('A') ? 'BB' : 'AA'}`;
    assert.equal((await verify(flipped)).status, 401);
  });

  it('refuses expired tokens, wrong audience or issuer, other algorithms and other keys', async () => {
    const sub = claimsOf(await gw.login('acmeStaff')).sub as string;
    const now = Math.floor(Date.now() / 1000);
    assert.equal((await verify(await forge(sub))).status, 200, 'the forge itself is right');
    assert.equal((await verify(await forge(sub, { iat: now - 7200, exp: now - 60 }))).status, 401, 'expired');
    assert.equal((await verify(await forge(sub, { aud: 'someone-else' }))).status, 401, 'audience');
    assert.equal((await verify(await forge(sub, { iss: 'someone-else' }))).status, 401, 'issuer');
    assert.equal((await verify(await forge(sub, { alg: 'HS512' }))).status, 401, 'HS512');
    const otherKey = new TextEncoder().encode('x'.repeat(48));
    assert.equal((await verify(await forge(sub, { secret: otherKey }))).status, 401, 'other key');
    const none = new UnsecuredJWT({ tid: null, role: 'super_admin', ver: 0 })
      .setSubject(sub)
      .setIssuer(gw.config.jwtIssuer)
      .setAudience(gw.config.jwtAudience)
      .setIssuedAt()
      .setExpirationTime('1h')
      .encode();
    assert.equal((await verify(none)).status, 401, 'alg none');
    assert.equal((await verify('not-a-token')).status, 401, 'garbage');
    assert.equal((await verify(await forge('00000000-0000-4000-8000-000000000000'))).status, 401, 'unknown user');
  });

  it('answers 400 for a missing token and 401 for an expired bearer header on protected routes', async () => {
    assert.equal((await gw.post('/v1/auth/verify', {})).status, 400);
    const sub = claimsOf(await gw.login('acmeOwner')).sub as string;
    const now = Math.floor(Date.now() / 1000);
    const expired = await forge(sub, { iat: now - 7200, exp: now - 60 });
    const r = await gw.get<ErrorBody>('/v1/tenants/current', expired);
    assert.equal(r.status, 401);
    assert.equal(r.headers.get('www-authenticate'), 'Bearer');
    assert.equal((await gw.get('/v1/tenants/current')).status, 401, 'no header');
    assert.equal((await gw.request('/v1/tenants/current', { headers: { authorization: 'Basic abc' } })).status, 401);
  });
});

describe('verifyToken remembers checked tokens (one signature check per token and process)', () => {
  it('re-checks expiry on every use, and never serves another string from memory', async () => {
    const sub = claimsOf(await gw.login('acmeStaff')).sub as string;
    const now = Math.floor(Date.now() / 1000);
    const token = await forge(sub, { iat: now, exp: now + 60 });
    const first = await verifyToken(gw.config, token);
    assert.equal(first?.sub, sub);
    assert.equal(await verifyToken(gw.config, token), first, 'remembered');
    assert.equal(await verifyToken(gw.config, token, () => (now + 59) * 1000), first, 'still valid');
    assert.equal(await verifyToken(gw.config, token, () => (now + 60) * 1000), null, 'expired while remembered');
    assert.deepEqual(await verifyToken(gw.config, token, () => (now + 30) * 1000), first, 'dropped, checked again');
    const [h, p, s] = token.split('.');
    const flipped = `${h}.${p}.${(s ?? '').slice(0, -2)}${(s ?? '').endsWith('A') ? 'BB' : 'AA'}`;
    assert.equal(await verifyToken(gw.config, flipped), null, 'a changed signature is checked');
    const otherKey = { ...gw.config, jwtSecret: new TextEncoder().encode('y'.repeat(48)) };
    assert.equal(await verifyToken(otherKey, token), null, 'remembered per signing key');
  });
});

describe('effective permissions and plan features', () => {
  const userOf = async (who: Parameters<TestGateway['login']>[0]) => (await verify(await gw.login(who))).body.user;

  it('Basic Guild owner: BASIC features only, so no automations', async () => {
    const u = await userOf('basicOwner');
    assert.equal(u.tenant_name, 'Basic Guild');
    assert.deepEqual([...u.features].sort(), [
      'custom_attributes',
      'manage_contacts',
      'monitor_smart_contracts',
      'templates',
      'view_engagement_emails',
    ]);
    assert.ok(!u.permissions.includes('automations'));
    assert.ok(!u.permissions.includes('transactional_emails'));
    assert.ok(!u.permissions.includes('manage_domains'), 'custom_domains is a GROW UP feature');
    assert.ok(u.permissions.includes('manage_users'), 'not feature-gated');
    assert.ok(u.permissions.includes('company_settings'));
    assert.ok(!u.permissions.includes('admin_tenants'));
  });

  it('Acme owner on START UP has automations and transactional e-mails', async () => {
    const u = await userOf('acmeOwner');
    assert.ok(u.features.includes('automations'));
    assert.ok(u.permissions.includes('automations'));
    assert.ok(u.permissions.includes('transactional_emails'));
    assert.ok(!u.permissions.includes('team_features'));
    assert.ok(!u.permissions.includes('view_advertising_emails'));
  });

  it('Acme staff has only manage_contacts and view_engagement_emails', async () => {
    const u = await userOf('acmeStaff');
    assert.deepEqual([...u.permissions].sort(), ['manage_contacts', 'view_engagement_emails']);
  });

  it('super admin: every permission on SCALE UP; global admin: admin permissions, no tenant', async () => {
    const s = await userOf('admin');
    assert.equal(s.role, 'super_admin');
    assert.equal(s.tenant_name, 'Console Platform');
    assert.equal(s.permissions.length, 19);
    const g = await userOf('global');
    assert.equal(g.role, 'global_admin');
    assert.equal(g.tenant_id, null);
    assert.equal(g.tenant_name, null);
    assert.deepEqual(g.features, []);
    assert.deepEqual([...g.permissions].sort(), ['admin_applets', 'admin_plans', 'admin_tenants']);
  });
});
