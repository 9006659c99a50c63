// API keys end to end over HTTP: shown once and stored as a hash, never listed, revoked from the next
// request, expiry, scopes, tenant boundaries, routes that refuse keys, the rate limit and the audit list.
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { buildApp } from '../app';
import { openDatabase } from '../db/index';
import { followerCacheOf } from '../auth/index';
import type { ApiKey, ApiKeyEventPage, ApiKeyPage, CreatedApiKey } from '../contracts';
import { apiKeys, users } from '../db/schema';
import { hashPassword } from '../auth/index';
import { type ErrorBody, startGateway, type TestGateway } from '../../test/helpers';
import { createApiKey, insertApiKey } from '../../test/api-key-fixtures';
import { NOT_FOR_KEYS, OUTSIDE_SCOPE } from '../auth/guards';
import { KEY_EXPIRED, KEY_PLAN, KEY_RATE_LIMITED, KEY_REVOKED, KEY_UNKNOWN } from './key-auth';

let gw: TestGateway;
let labOwner: string;
// The gateway's clock: real time moved on by `offset` (the expiry test), or standing still (the rate limit's).
let offset = 0;
let frozen: Date | null = null;
const clock = () => frozen ?? new Date(Date.now() + offset);

before(async () => {
  gw = await startGateway({ API_KEY_RATE_LIMIT: '5', API_KEY_RATE_BURST: '5' }, { clock });
  labOwner = await gw.login('labOwner');
});
after(() => gw.close());

const withKey = (path: string, secret: string, init: { method?: string; body?: unknown } = {}) =>
  gw.request<unknown>(path, {
    method: init.method,
    body: init.body,
    headers: { authorization: `Bearer ${secret}` },
  });

/** Waits until background writes (last use, events) show. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('the key lifecycle', () => {
  it('shows the secret once, stores only its SHA-256, and never lists it', async () => {
    const r = await gw.post<CreatedApiKey>('/v1/api-keys', { name: ' Shop back end ', scope: 'contacts' }, labOwner);
    assert.equal(r.status, 201, r.text);
    const { secret } = r.body;
    assert.match(secret, /^ck_live_[0-9A-Za-z]{43}$/);
    assert.equal(r.body.name, 'Shop back end');
    assert.equal(r.body.prefix, secret.slice(0, 16));
    assert.equal(r.body.status, 'active');
    assert.equal(r.body.created_by?.email, 'owner@lab.test');

    const [row] = await gw.handle.db.select().from(apiKeys).where(eq(apiKeys.id, r.body._id));
    assert.equal(row?.secretHash, createHash('sha256').update(secret).digest('hex'));
    assert.ok(!JSON.stringify(row).includes(secret.slice(16)), 'the table holds no part of the secret past the prefix');

    for (const path of ['/v1/api-keys', '/v1/tenants/access-keys', '/v1/api-keys/events']) {
      const listed = await gw.get(path, labOwner);
      assert.equal(listed.status, 200, listed.text);
      assert.ok(!listed.text.includes(secret.slice(16)), `${path} shows the secret`);
    }
    const page = await gw.get<ApiKeyPage>('/v1/api-keys?searchString=shop', labOwner);
    assert.deepEqual(
      page.body.records.map((k) => k.name),
      ['Shop back end'],
    );
    assert.equal(page.body.pagination.count, 1);
  });

  it('revoking refuses the very next request, and the spec calls generate and revoke', async () => {
    const generated = await gw.post<CreatedApiKey>('/v1/tenants/access-keys', { action: 'generate' }, labOwner);
    assert.equal(generated.status, 201, generated.text);
    assert.equal(generated.body.scope, 'full');
    assert.equal(generated.body.name, 'API key');
    const { secret } = generated.body;
    assert.equal((await withKey('/v1/contacts', secret)).status, 200);
    assert.equal((await withKey('/v1/contacts', secret)).status, 200);

    const revoked = await gw.post<ApiKey>(
      '/v1/tenants/access-keys',
      { action: 'revoke', id: generated.body._id },
      labOwner,
    );
    assert.equal(revoked.status, 200, revoked.text);
    assert.equal(revoked.body.status, 'revoked');
    const refused = await withKey('/v1/contacts', secret);
    assert.equal(refused.status, 401);
    assert.deepEqual(refused.body, { message: KEY_REVOKED });

    const missing = await gw.post<ErrorBody>('/v1/tenants/access-keys', { action: 'revoke' }, labOwner);
    assert.equal(missing.status, 400);
    assert.ok(missing.body.errors?.id);
    const other = await gw.request<ErrorBody>(`/v1/api-keys/${randomUUID()}`, {
      method: 'DELETE',
      token: labOwner,
    });
    assert.equal(other.status, 404);
  });

  it('DELETE /v1/api-keys/{id} revokes too; an unknown or malformed key is 401', async () => {
    const key = await createApiKey(gw, 'labOwner', 'full', { token: labOwner });
    assert.equal((await withKey('/v1/contacts', key.secret)).status, 200);
    const del = await gw.request<ApiKey>(`/v1/api-keys/${key.id}`, { method: 'DELETE', token: labOwner });
    assert.equal(del.status, 200, del.text);
    assert.equal((await withKey('/v1/contacts', key.secret)).status, 401);

    for (const secret of [`ck_live_${'a'.repeat(43)}`, 'ck_live_short']) {
      const r = await withKey('/v1/contacts', secret);
      assert.equal(r.status, 401);
      assert.deepEqual(r.body, { message: KEY_UNKNOWN });
      assert.equal(r.headers.get('www-authenticate'), 'Bearer');
    }
  });

  it('refuses an expiry in the past, bad names and scopes with field errors', async () => {
    const past = await gw.post<ErrorBody>(
      '/v1/api-keys',
      { name: 'Old', scope: 'full', expires_at: new Date(clock().getTime() - 60_000).toISOString() },
      labOwner,
    );
    assert.equal(past.status, 400);
    assert.deepEqual(Object.keys(past.body.errors ?? {}), ['expires_at']);
    const bad = await gw.post<ErrorBody>('/v1/api-keys', { name: '  ', scope: 'admin' }, labOwner);
    assert.equal(bad.status, 400);
    assert.deepEqual(Object.keys(bad.body.errors ?? {}).sort(), ['name', 'scope']);
    const date = await gw.post<ErrorBody>('/v1/api-keys', { name: 'x', scope: 'full', expires_at: 'soon' }, labOwner);
    assert.deepEqual(Object.keys(date.body.errors ?? {}), ['expires_at']);
  });

  it('an expired key is refused and its "expired" event written once', async () => {
    const expiresAt = new Date(clock().getTime() + 60 * 60 * 1000).toISOString();
    const key = await createApiKey(gw, 'labOwner', 'contacts', { token: labOwner, name: 'Short lived', expiresAt });
    assert.equal((await withKey('/v1/contacts', key.secret)).status, 200);
    offset = 2 * 60 * 60 * 1000;
    try {
      for (let i = 0; i < 3; i++) {
        const r = await withKey('/v1/contacts', key.secret);
        assert.equal(r.status, 401);
        assert.deepEqual(r.body, { message: KEY_EXPIRED });
      }
      await eventually(async () => {
        const events = await gw.get<ApiKeyEventPage>('/v1/api-keys/events?searchString=Short%20lived', labOwner);
        return events.body.records.some((e) => e.kind === 'expired');
      });
      const events = await gw.get<ApiKeyEventPage>('/v1/api-keys/events?searchString=Short%20lived', labOwner);
      assert.deepEqual(events.body.records.map((e) => e.kind).sort(), ['created', 'expired', 'first_used']);
      const listed = await gw.get<ApiKeyPage>('/v1/api-keys?searchString=Short%20lived', labOwner);
      assert.equal(listed.body.records[0]?.status, 'expired');
    } finally {
      offset = 0;
    }
  });
});

describe('scopes and boundaries', () => {
  it('a sending key gets 403 on contacts; a contacts key lists and writes contacts and lists', async () => {
    const sending = await createApiKey(gw, 'labOwner', 'sending', { token: labOwner });
    const refused = await withKey('/v1/contacts', sending.secret);
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.body, { message: OUTSIDE_SCOPE });

    const contacts = await createApiKey(gw, 'labOwner', 'contacts', { token: labOwner });
    const created = await withKey('/v1/contacts', contacts.secret, { body: { email: 'api@lab.test' } });
    assert.equal(created.status, 201, created.text);
    const list = await withKey('/v1/lists', contacts.secret, { body: { name: 'From the API' } });
    assert.equal(list.status, 201, list.text);
    const listed = await withKey('/v1/contacts', contacts.secret);
    assert.equal(listed.status, 200);
    assert.match(listed.text, /api@lab\.test/);
    // Templates are outside the contacts scope, inside full.
    assert.equal((await withKey('/v1/templates', contacts.secret)).status, 403);
  });

  it("a key of one tenant gets 404 for another tenant's contact", async () => {
    const acme = await gw.login('acmeOwner');
    const acmeContacts = await gw.get<{ records: Array<{ _id: string }> }>('/v1/contacts', acme);
    const acmeId = acmeContacts.body.records[0]?._id;
    assert.ok(acmeId);
    const key = await createApiKey(gw, 'labOwner', 'contacts', { token: labOwner });
    assert.equal((await withKey(`/v1/contacts/${acmeId}`, key.secret)).status, 404);
  });

  it('key management, sessions, profile, admin routes and routes without a permission refuse keys', async () => {
    const cases: Array<[string, string, unknown?]> = [
      ['GET', '/v1/api-keys'],
      ['POST', '/v1/api-keys', { name: 'minted', scope: 'full' }],
      ['GET', '/v1/tenants/access-keys'],
      ['POST', '/v1/tenants/access-keys', { action: 'generate' }],
      ['GET', '/v1/users'],
      ['GET', '/v1/profile'],
      ['POST', '/v1/auth/change-password', { password: 'x', new_password: 'y' }],
      ['POST', '/v1/auth/logout', {}],
      ['GET', '/v1/tenants'],
      ['GET', '/v1/settings'],
      ['GET', '/v1/overview'],
    ];
    // A key per request: each key's burst is 5.
    const key = async () => (await createApiKey(gw, 'labOwner', 'full', { token: labOwner })).secret;
    for (const [method, path, body] of cases) {
      const r = await withKey(path, await key(), { method, body });
      assert.equal(r.status, 403, `${method} ${path}: ${r.status} ${r.text}`);
    }
    const profile = await withKey('/v1/profile', await key());
    assert.deepEqual(profile.body, { message: NOT_FOR_KEYS });
    const rows = await gw.handle.db.select({ name: apiKeys.name }).from(apiKeys).where(eq(apiKeys.name, 'minted'));
    assert.equal(rows.length, 0);
  });

  it('staff without api_access get 403; a plan without API access cannot create or use keys', async () => {
    const [lab] = await gw.handle.db
      .select({ tenantId: users.tenantId })
      .from(users)
      .where(eq(users.email, 'owner@lab.test'));
    await gw.handle.db.insert(users).values({
      tenantId: lab?.tenantId ?? null,
      email: 'staff@lab.test',
      passwordHash: await hashPassword('lab-staff-pass-2026'),
      role: 'staff',
      permissions: ['manage_contacts'],
    });
    const staff = await gw.request<{ token: string }>('/v1/auth/login', {
      body: { email: 'staff@lab.test', password: 'lab-staff-pass-2026' },
    });
    assert.equal(staff.status, 200, staff.text);
    assert.equal((await gw.get('/v1/api-keys', staff.body.token)).status, 403);
    const made = await gw.post('/v1/api-keys', { name: 'x', scope: 'contacts' }, staff.body.token);
    assert.equal(made.status, 403);

    // Acme's START UP plan has no API access: its owner cannot create keys, and a key of it is refused.
    const acme = await gw.login('acmeOwner');
    const planRefused = await gw.post<ErrorBody>('/v1/api-keys', { name: 'x', scope: 'full' }, acme);
    assert.equal(planRefused.status, 403);
    const acmeKey = await insertApiKey(gw, 'owner@acme.test', 'full');
    const used = await withKey('/v1/contacts', acmeKey.secret);
    assert.equal(used.status, 403);
    assert.deepEqual(used.body, { message: KEY_PLAN });
  });
});

describe('rate limit and audit', () => {
  it('answers 429 with Retry-After past the burst, per key', async () => {
    const key = await createApiKey(gw, 'labOwner', 'contacts', { token: labOwner });
    const other = await createApiKey(gw, 'labOwner', 'contacts', { token: labOwner });
    // The clock stands still: the burst of 5 is all there is.
    frozen = new Date();
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof withKey>> | null = null;
    for (let i = 0; i < 7; i++) {
      const r = await withKey('/v1/contacts?perPage=1', key.secret);
      statuses.push(r.status);
      if (r.status === 429) limited = r;
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429]);
    assert.deepEqual(limited?.body, { message: KEY_RATE_LIMITED });
    assert.equal(limited?.headers.get('retry-after'), '1');
    assert.equal((await withKey('/v1/contacts?perPage=1', other.secret)).status, 200);
    frozen = null;
  });

  it('records created, first used (with the address and last use) and revoked, with who acted', async () => {
    const key = await createApiKey(gw, 'labOwner', 'contacts', { token: labOwner, name: 'Audited' });
    assert.equal((await withKey('/v1/contacts', key.secret)).status, 200);
    assert.equal((await withKey('/v1/contacts', key.secret)).status, 200);
    await eventually(async () => {
      const [row] = await gw.handle.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
      return row?.lastUsedAt != null;
    });
    const del = await gw.request(`/v1/api-keys/${key.id}`, { method: 'DELETE', token: labOwner });
    assert.equal(del.status, 200);
    const events = await gw.get<ApiKeyEventPage>('/v1/api-keys/events?searchString=Audited&sortOrder=asc', labOwner);
    assert.deepEqual(
      events.body.records.map((e) => [e.kind, e.actor?.email ?? null, e.ip]),
      [
        ['created', 'owner@lab.test', null],
        ['first_used', null, '127.0.0.1'],
        ['revoked', 'owner@lab.test', null],
      ],
    );
    const listed = await gw.get<ApiKeyPage>('/v1/api-keys?searchString=Audited', labOwner);
    assert.equal(listed.body.records[0]?.last_used_ip, '127.0.0.1');
    assert.ok(listed.body.records[0]?.last_used_at);
  });
});

describe('revocation in every process', () => {
  it('a revoke written by anyone is announced by the database: the cached key is dropped', async () => {
    const key = await createApiKey(gw, 'labOwner', 'contacts', { token: labOwner });
    assert.equal((await withKey('/v1/contacts?perPage=1', key.secret)).status, 200);
    const cache = followerCacheOf(gw.handle.db, 'api-keys');
    await eventually(async () => cache.size > 0);
    // Not through the route (which drops this process's copy itself): only the trigger's notification tells.
    await gw.handle.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, key.id));
    await eventually(async () => (await withKey('/v1/contacts?perPage=1', key.secret)).status === 401);
  });

  it(
    'a revoke on one gateway refuses the key on another within a second',
    { skip: !process.env.TEST_DATABASE_URL },
    async () => {
      const handle = await openDatabase({ databaseUrl: gw.config.databaseUrl, pgliteDir: 'memory://' });
      const app = await buildApp({ db: handle.db, config: gw.config });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      try {
        const key = await createApiKey(gw, 'labOwner', 'contacts', { token: labOwner });
        const onOther = () =>
          fetch(`${url}/v1/contacts?perPage=1`, { headers: { authorization: key.authorization } }).then(
            (r) => r.status,
          );
        await eventually(async () => followerCacheOf(handle.db, 'api-keys').enabled);
        assert.equal(await onOther(), 200);
        assert.equal(await onOther(), 200, 'cached on the other');
        const del = await gw.request(`/v1/api-keys/${key.id}`, { method: 'DELETE', token: labOwner });
        assert.equal(del.status, 200);
        const start = Date.now();
        await eventually(async () => (await onOther()) === 401);
        assert.ok(Date.now() - start < 1000, `${Date.now() - start} ms`);
      } finally {
        await app.close();
        await handle.close();
      }
    },
  );
});
