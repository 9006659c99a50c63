import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import type { TeamPage, Tenant, TenantPage } from '../contracts';
import { users } from '../db/schema';
import { type ErrorBody, startGateway, type TestGateway } from '../../test/helpers';

let gw: TestGateway;
before(async () => {
  gw = await startGateway();
});
after(() => gw.close());

describe('GET /v1/tenants (admin_tenants)', () => {
  it('is 403 for tenant owners and staff, 401 without a token', async () => {
    const r = await gw.get<ErrorBody>('/v1/tenants', await gw.login('acmeOwner'));
    assert.equal(r.status, 403);
    assert.equal(typeof r.body.message, 'string');
    assert.equal((await gw.get('/v1/tenants', await gw.login('acmeStaff'))).status, 403);
    assert.equal((await gw.get('/v1/tenants')).status, 401);
    // Who you are is checked before what you sent.
    assert.equal((await gw.get('/v1/tenants?page=abc')).status, 401);
    assert.equal((await gw.get('/v1/tenants?page=abc', await gw.login('acmeStaff'))).status, 403);
  });

  it('lists every tenant for the global admin, newest first, with pagination', async () => {
    const token = await gw.login('global');
    const r = await gw.get<TenantPage>('/v1/tenants', token);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.body.records.map((t) => t.name),
      ['Lab Rats', 'Basic Guild', 'Acme DAO', 'Console Platform'],
    );
    assert.deepEqual(r.body.pagination, { starting: 1, ending: 4, count: 4, previous: null, next: null });
    const acme = r.body.records.find((t) => t.name === 'Acme DAO');
    assert.equal(acme?.stripe_customer_id, 'cus_acme_demo');
    assert.equal(acme?.plan.key, 'startup');
    assert.equal(acme?.plan.name, 'START UP');
    assert.equal(acme?.owner, undefined, 'owner only with includeOwner');
    assert.equal(r.body.records.find((t) => t.name === 'Basic Guild')?.stripe_customer_id, null);
  });

  it('pages, sorts, searches and includes owners', async () => {
    const token = await gw.login('admin');
    const p2 = await gw.get<TenantPage>('/v1/tenants?perPage=3&page=2&sortField=name&sortOrder=asc', token);
    assert.equal(p2.status, 200, p2.text);
    assert.deepEqual(
      p2.body.records.map((t) => t.name),
      ['Lab Rats'],
    );
    assert.deepEqual(p2.body.pagination, { starting: 4, ending: 4, count: 4, previous: 1, next: null });

    const found = await gw.get<TenantPage>('/v1/tenants?searchString=acme&includeOwner=true', token);
    assert.deepEqual(
      found.body.records.map((t) => t.name),
      ['Acme DAO'],
    );
    const acme = found.body.records[0];
    assert.equal(acme?.owner?.email, 'owner@acme.test');
    assert.deepEqual(
      acme?.users?.map((u) => u.email),
      ['owner@acme.test', 'staff@acme.test'],
    );
    // Each user with the preset Manage Users names their role by (memberRoleName): one rule for both.
    assert.deepEqual(
      acme?.users?.map((u) => [u.email, u.preset]),
      [
        ['owner@acme.test', 'owner'],
        ['staff@acme.test', 'custom'],
      ],
    );

    const noOwner = await gw.get<TenantPage>('/v1/tenants?searchString=acme&includeOwner=false', token);
    assert.equal(noOwner.body.records[0]?.owner, undefined);

    const literal = await gw.get<TenantPage>('/v1/tenants?searchString=%25', token);
    assert.deepEqual(literal.body.records, [], '% is matched literally');
    assert.deepEqual(literal.body.pagination, { starting: 0, ending: 0, count: 0, previous: null, next: null });
  });

  it('rejects unknown sort fields and bad paging with field errors', async () => {
    const token = await gw.login('global');
    const r = await gw.get<ErrorBody>('/v1/tenants?sortField=password_hash&page=0&perPage=abc', token);
    assert.equal(r.status, 400);
    assert.ok(r.body.errors?.sortField);
    assert.ok(r.body.errors?.page);
    assert.ok(r.body.errors?.perPage);
  });
});

describe('GET /v1/tenants/current', () => {
  it("returns the caller's own tenant", async () => {
    const r = await gw.get<Tenant>('/v1/tenants/current', await gw.login('basicOwner'));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.name, 'Basic Guild');
    assert.equal(r.body.plan.key, 'basic');
    assert.equal(r.body.stripe_customer_id, null);
  });

  it('is 403 for a user without a tenant', async () => {
    assert.equal((await gw.get('/v1/tenants/current', await gw.login('global'))).status, 403);
  });
});

describe('GET /v1/users (manage_users)', () => {
  it("returns only the caller's tenant's users", async () => {
    const acme = await gw.get<TeamPage>('/v1/users?sortField=email&sortOrder=asc', await gw.login('acmeOwner'));
    assert.equal(acme.status, 200, acme.text);
    assert.deepEqual(
      acme.body.records.map((u) => u.email),
      ['owner@acme.test', 'staff@acme.test'],
    );
    assert.equal(acme.body.pagination.count, 2);
    const basic = await gw.get<TeamPage>('/v1/users', await gw.login('basicOwner'));
    assert.deepEqual(
      basic.body.records.map((u) => u.email),
      ['owner@basic.test'],
    );
    const searched = await gw.get<TeamPage>('/v1/users?searchString=basic', await gw.login('acmeOwner'));
    assert.deepEqual(searched.body.records, [], 'search never leaves the tenant');
  });

  it('is 403 without manage_users', async () => {
    assert.equal((await gw.get('/v1/users', await gw.login('acmeStaff'))).status, 403);
    assert.equal((await gw.get('/v1/users', await gw.login('global'))).status, 403);
  });

  it('takes effect at once when permissions change (loaded on every request)', async () => {
    const token = await gw.login('labOwner');
    assert.equal((await gw.get('/v1/users', token)).status, 200);
    await gw.handle.db
      .update(users)
      .set({ permissions: ['manage_contacts'] })
      .where(eq(users.email, 'owner@lab.test'));
    gw.sessionsChanged();
    assert.equal((await gw.get('/v1/users', token)).status, 403);
    await gw.handle.db.delete(users).where(eq(users.email, 'owner@lab.test'));
    gw.sessionsChanged();
    assert.equal((await gw.get('/v1/users', token)).status, 401);
  });
});
