// The tenant community cache (onboarding/community-cache.ts): GET /v1/communities/my-community is served
// from memory, and every write is seen by the next read: at once in the process that wrote, within
// the notification's delay in another gateway process on the same PostgreSQL server.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import type { Community } from '../../contracts';
import { openDatabase, type DatabaseHandle } from '../../db/index';
import { communities, tenants } from '../../db/schema';
import { communityCacheOf } from './community-cache';
import { call } from '../../../test/audience-helpers';
import { startGateway, type TestGateway } from '../../../test/helpers';

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
let owner: string;
let acmeId: string;
before(async () => {
  gw = await startGateway();
  owner = await gw.login('acmeOwner');
  const [acme] = await gw.handle.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.name, 'Acme DAO'));
  assert.ok(acme);
  acmeId = acme.id;
});
after(() => gw.close());

const mine = async (g: { url: string }) => {
  const r = await fetch(`${g.url}/v1/communities/my-community`, { headers: { authorization: `Bearer ${owner}` } });
  return { status: r.status, body: (await r.json()) as Community };
};

describe('one gateway', () => {
  it('serves the community from memory once read', async () => {
    const first = await mine(gw);
    assert.equal(first.status, 200);
    assert.ok(communityCacheOf(gw.handle.db).enabled, 'listening since the gateway started');
    assert.ok(communityCacheOf(gw.handle.db).size >= 1);
    assert.deepEqual(await mine(gw), first);
  });

  it('an edit through the API is seen by the very next read', async () => {
    const before = await mine(gw);
    const r = await call<Community>(gw, 'PATCH', `/v1/communities/${before.body._id}`, owner, {
      title: 'Acme, renamed',
      short_description: 'Fresh words',
    });
    assert.equal(r.status, 200, r.text);
    const after = await mine(gw);
    assert.equal(after.body.title, 'Acme, renamed');
    assert.equal(after.body.short_description, 'Fresh words');
    assert.equal(after.body.updated_at, r.body.updated_at);
  });

  it('a write by anyone else (trigger) and a removal are seen', async () => {
    await mine(gw);
    await gw.handle.db.update(communities).set({ title: 'Written by hand' }).where(eq(communities.tenantId, acmeId));
    await eventually(async () => assert.equal((await mine(gw)).body.title, 'Written by hand'));
    const [row] = await gw.handle.db.select().from(communities).where(eq(communities.tenantId, acmeId));
    assert.ok(row);
    await gw.handle.db.delete(communities).where(eq(communities.tenantId, acmeId));
    await eventually(async () => assert.equal((await mine(gw)).status, 404));
    await gw.handle.db.insert(communities).values(row);
    assert.equal((await mine(gw)).status, 200, 'absence is never kept');
  });

  it('a read that raced a write is not kept', async () => {
    const cache = communityCacheOf(gw.handle.db);
    const stale = await cache.load('t-race', async () => {
      cache.invalidate('tenant:t-race'); // a write committed while the row was being read
      return { value: { id: 'old' } as never, tenantId: 't-race' };
    });
    assert.equal((stale as { id: string }).id, 'old');
    const fresh = await cache.load('t-race', async () => ({ value: { id: 'new' } as never, tenantId: 't-race' }));
    assert.equal((fresh as { id: string }).id, 'new');
    cache.invalidate('tenant:t-race');
  });
});

describe('two gateways on one PostgreSQL server', { skip: !process.env.TEST_DATABASE_URL }, () => {
  let other: { app: FastifyInstance; handle: DatabaseHandle; url: string };
  before(async () => {
    const handle = await openDatabase({ databaseUrl: gw.config.databaseUrl, pgliteDir: 'memory://' });
    const app = await buildApp({ db: handle.db, config: gw.config });
    await app.listen({ port: 0, host: '127.0.0.1' });
    other = { app, handle, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
    await eventually(async () => assert.ok(communityCacheOf(handle.db).enabled));
  });
  after(async () => {
    await other.app.close();
    await other.handle.close();
  });

  it('an edit on one is seen by the next reads of both (the other within a second)', async () => {
    const before = await mine(other);
    assert.equal(before.status, 200);
    assert.deepEqual(await mine(other), before, 'cached on the other');
    const r = await call<Community>(gw, 'PATCH', `/v1/communities/${before.body._id}`, owner, {
      title: 'Edited on the first gateway',
    });
    assert.equal(r.status, 200, r.text);
    assert.equal((await mine(gw)).body.title, 'Edited on the first gateway', 'the writer at once');
    const start = Date.now();
    await eventually(async () => assert.equal((await mine(other)).body.title, 'Edited on the first gateway'));
    assert.ok(Date.now() - start < 1000);
  });
});
