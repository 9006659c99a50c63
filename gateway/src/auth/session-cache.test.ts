// The session check's cache (auth/session-cache.ts): requests are served from memory, and a password
// reset, a permission change, a plan change and a removed user take effect at once, in the process
// that wrote and (on a PostgreSQL server) in every other gateway process on the same database.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { SessionCache, sessionCacheOf } from './session-cache';
import type { SessionUser } from '../contracts';
import { openDatabase, type DatabaseHandle } from '../db/index';
import { plans, tenants, users } from '../db/schema';
import { linkIn, startGateway, type TestGateway } from '../../test/helpers';

describe('SessionCache (unit)', () => {
  it('serves a loaded value until invalidated, only while listening', async () => {
    let now = 0;
    const cache = new SessionCache<string>(() => now);
    let loads = 0;
    const loader = async () => ({ value: `v${++loads}`, tenantId: 't1' });
    assert.equal(await cache.load('u1', loader), 'v1');
    assert.equal(await cache.load('u1', loader), 'v2', 'not listening yet: nothing cached');
    cache.setListening(true);
    assert.equal(await cache.load('u1', loader), 'v3');
    assert.equal(await cache.load('u1', loader), 'v3', 'cached');
    cache.invalidate('user:u2');
    assert.equal(await cache.load('u1', loader), 'v3', 'another user changed');
    cache.invalidate('tenant:t1');
    assert.equal(await cache.load('u1', loader), 'v4', 'its tenant changed');
    cache.invalidate('user:u1');
    assert.equal(await cache.load('u1', loader), 'v5', 'it changed');
    cache.invalidate('all');
    assert.equal(await cache.load('u1', loader), 'v6', 'everything changed');
    now += 60_001;
    assert.equal(await cache.load('u1', loader), 'v7', 'expired');
    cache.setListening(false);
    assert.equal(cache.size, 0, 'a lost listener empties the cache');
  });

  it('does not store a read that raced an invalidation', async () => {
    const cache = new SessionCache<string>();
    cache.setListening(true);
    const stale = cache.load('u1', async () => {
      cache.invalidate('user:u1'); // a write committed while the row was being read
      return { value: 'old', tenantId: null };
    });
    assert.equal(await stale, 'old');
    assert.equal(await cache.load('u1', async () => ({ value: 'new', tenantId: null })), 'new');
  });
});

/** Polls until `check` passes (notifications arrive after the commit, within milliseconds). */
async function eventually(check: () => Promise<void>, ms = 1000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > end) throw error;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

let gw: TestGateway;
before(async () => {
  gw = await startGateway({ CONSOLE_URL: 'http://console.example:3000' });
});
after(() => gw.close());

const RESET_PREFIX = 'http://console.example:3000/reset/';

/** A full password reset through the API (request, the e-mailed link, new password). */
async function resetPassword(email: string, password: string): Promise<void> {
  await gw.post('/v1/auth/reset-request', { email });
  const link = linkIn(await gw.waitForMail(email, /reset/i), RESET_PREFIX);
  const [userId, resetToken] = link.slice(RESET_PREFIX.length).split('/');
  const done = await gw.post('/v1/auth/reset', {
    user_id: userId,
    reset_token: decodeURIComponent(resetToken ?? ''),
    password,
  });
  assert.equal(done.status, 200, done.text);
}

const logout = (token: string | null) => gw.request<{ message: string }>('/v1/auth/logout', { method: 'POST', token });

const me = async (g: { url: string }, token: string) => {
  const r = await fetch(`${g.url}/v1/auth/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  return { status: r.status, user: r.status === 200 ? ((await r.json()) as { user: SessionUser }).user : null };
};

describe('one gateway', () => {
  it('answers the session check from memory once listening', async () => {
    const token = await gw.login('labOwner');
    assert.ok(sessionCacheOf(gw.handle.db).enabled, 'listening since the gateway started');
    assert.equal((await me(gw, token)).status, 200);
    assert.ok(sessionCacheOf(gw.handle.db).size >= 1);
  });

  it('a password reset refuses the old token at once', async () => {
    const token = await gw.login('basicOwner');
    assert.equal((await me(gw, token)).status, 200);
    await resetPassword('owner@basic.test', 'basic-pass-2026-new');
    assert.equal((await me(gw, token)).status, 401, 'no wait: the writer dropped it');
  });

  it('a permission change, a plan change and a removed user, written by anyone (triggers)', async () => {
    const db = gw.handle.db;
    const token = await gw.login('acmeStaff');
    const before = await me(gw, token);
    assert.ok(before.user?.permissions.includes('manage_contacts'));
    await db
      .update(users)
      .set({ permissions: ['view_engagement_emails'] })
      .where(eq(users.email, 'staff@acme.test'));
    await eventually(async () => assert.deepEqual((await me(gw, token)).user?.permissions, ['view_engagement_emails']));

    const owner = await gw.login('acmeOwner');
    const [basic] = await db.select({ id: plans.id }).from(plans).where(eq(plans.key, 'basic'));
    assert.ok(basic);
    await db.update(tenants).set({ planId: basic.id }).where(eq(tenants.name, 'Acme DAO'));
    await eventually(async () => assert.ok(!(await me(gw, owner)).user?.features.includes('automations')));
    await db.execute(sql`update plans set features = features || '{automations}'::text[] where key = 'basic'`);
    await eventually(async () => assert.ok((await me(gw, owner)).user?.features.includes('automations')));

    await db.delete(users).where(eq(users.email, 'staff@acme.test'));
    await eventually(async () => assert.equal((await me(gw, token)).status, 401));
  });
});

describe('a token whose signature check is remembered (auth/tokens.ts) is still refused at once', () => {
  it('after a password reset', async () => {
    const token = await gw.login('admin');
    assert.equal((await me(gw, token)).status, 200);
    assert.equal((await gw.get('/v1/tenants/current', token)).status, 200, 'remembered by now');
    await resetPassword('admin@console.test', 'admin-pass-2026-new');
    assert.equal((await me(gw, token)).status, 401);
    assert.equal((await gw.get('/v1/tenants/current', token)).status, 401);
  });

  it('after the user is removed', async () => {
    const token = await gw.login('global');
    assert.equal((await me(gw, token)).status, 200);
    assert.equal((await me(gw, token)).status, 200, 'remembered');
    await gw.handle.db.delete(users).where(eq(users.email, 'global@console.test'));
    await eventually(async () => assert.equal((await me(gw, token)).status, 401));
  });
});

describe('sign-out (POST /v1/auth/logout)', () => {
  it('a copied token gets 401 once its session signed out; other sessions of the user stay', async () => {
    const token = await gw.login('acmeOwner');
    const copy = `${token}`;
    const other = await gw.login('acmeOwner');
    assert.equal((await me(gw, copy)).status, 200);
    const out = await logout(token);
    assert.equal(out.status, 200, out.text);
    assert.equal(out.body.message, 'You are signed out.');
    assert.equal((await me(gw, copy)).status, 401, 'verify refuses it');
    assert.equal((await gw.get('/v1/contacts?perPage=1', copy)).status, 401, 'every route refuses it');
    assert.equal((await logout(copy)).status, 401, 'it cannot sign out twice');
    assert.equal((await me(gw, other)).status, 200, 'another session of the same user is not ended');
  });

  it('is stored: read from the database while the cache is not listening (a restart, a lost connection)', async () => {
    const token = await gw.login('acmeOwner');
    assert.equal((await logout(token)).status, 200);
    const cache = sessionCacheOf(gw.handle.db);
    cache.setListening(false);
    try {
      assert.equal((await me(gw, token)).status, 401);
    } finally {
      cache.setListening(true);
    }
    assert.equal((await me(gw, token)).status, 401);
  });

  it('needs a valid token', async () => {
    assert.equal((await logout(null)).status, 401);
    assert.equal((await logout('not-a-token')).status, 401);
  });
});

describe('two gateways on one PostgreSQL server', { skip: !process.env.TEST_DATABASE_URL }, () => {
  let other: { app: FastifyInstance; handle: DatabaseHandle; url: string };
  before(async () => {
    const handle = await openDatabase({ databaseUrl: gw.config.databaseUrl, pgliteDir: 'memory://' });
    const app = await buildApp({ db: handle.db, config: gw.config });
    await app.listen({ port: 0, host: '127.0.0.1' });
    other = { app, handle, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
    await eventually(async () => assert.ok(sessionCacheOf(handle.db).enabled));
  });
  after(async () => {
    await other.app.close();
    await other.handle.close();
  });

  it('a password reset on one refuses the old token on the other within a second', async () => {
    const token = await gw.login('labOwner');
    assert.equal((await me(other, token)).status, 200);
    assert.equal((await me(other, token)).status, 200, 'cached on the other');
    await resetPassword('owner@lab.test', 'lab-pass-2026-new');
    const start = Date.now();
    await eventually(async () => assert.equal((await me(other, token)).status, 401));
    assert.ok(Date.now() - start < 1000);
  });

  it('a sign-out on one refuses the token on the other within a second', async () => {
    const token = await gw.login('acmeOwner');
    assert.equal((await me(other, token)).status, 200);
    assert.equal((await logout(token)).status, 200);
    const start = Date.now();
    await eventually(async () => assert.equal((await me(other, token)).status, 401));
    assert.ok(Date.now() - start < 1000);
  });

  it('a plan change on one is seen by the other', async () => {
    const token = await gw.login('acmeOwner');
    const [growup] = await gw.handle.db.select({ id: plans.id }).from(plans).where(eq(plans.key, 'growup'));
    assert.ok(growup);
    assert.equal((await me(other, token)).status, 200);
    await gw.handle.db.update(tenants).set({ planId: growup.id }).where(eq(tenants.name, 'Acme DAO'));
    await eventually(async () => assert.ok((await me(other, token)).user?.features.includes('custom_domains')));
  });
});
