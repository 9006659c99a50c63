// Apps (the tenant side of applets): GET /v1/apps lists the enabled applets whose plans include the
// tenant's plan, or that a platform admin enabled for the tenant; never another tenant's extras.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import type { AppList } from '../contracts';
import { applets, plans, tenants } from '../db/schema';
import { tenantId } from '../../test/audience-helpers';
import { startGateway, type TestGateway } from '../../test/helpers';

describe('GET /v1/apps', () => {
  let gw: TestGateway;
  let lab: string;
  let acme: string;
  let acmeId: string;
  let startup: string;
  let growup: string;

  before(async () => {
    gw = await startGateway({ APPLET_TOKEN_GATE_URL: 'http://applets.test:3006' });
    lab = await gw.login('labOwner');
    acme = await gw.login('acmeOwner');
    acmeId = await tenantId(gw, 'Acme DAO');
    const ids = new Map((await gw.handle.db.select().from(plans)).map((p) => [p.key, p.id]));
    startup = ids.get('startup') ?? '';
    growup = ids.get('growup') ?? '';
  });
  after(() => gw.close());

  beforeEach(async () => {
    // Only the seeded sample applet, and no tenant extras, before each test.
    await gw.handle.db.delete(applets).where(eq(applets.slug, 'extra'));
    await gw.handle.db.update(applets).set({ enabled: true });
    await gw.handle.db.update(tenants).set({ enabledApplets: [] });
  });

  const slugs = async (token: string | null) => {
    const reply = await gw.get<AppList>('/v1/apps', token);
    assert.equal(reply.status, 200, reply.text);
    return reply.body.records.map((a) => a.slug);
  };

  async function addExtra(planIds: string[], enabled = true): Promise<string> {
    const [row] = await gw.handle.db
      .insert(applets)
      .values({
        name: 'Extra',
        slug: 'extra',
        manifestUrl: 'https://x.test/mf-manifest.json',
        module: './Page',
        planIds,
        enabled,
      })
      .returning({ id: applets.id });
    return row?.id ?? '';
  }

  it('lists the seeded sample for a tenant whose plan includes it (GROW UP), with its manifest', async () => {
    const reply = await gw.get<AppList>('/v1/apps', lab);
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(
      reply.body.records.map(({ _id, ...rest }) => rest),
      [
        {
          name: 'Token Gate',
          slug: 'token-gate',
          description: reply.body.records[0]?.description,
          icon: null,
          manifest_url: 'http://applets.test:3006/mf-manifest.json',
          module: './Page',
        },
      ],
    );
    assert.match(reply.body.records[0]?._id ?? '', /^[0-9a-f-]{36}$/);
  });

  it('does not list it for a tenant on another plan (START UP)', async () => {
    assert.deepEqual(await slugs(acme), []);
  });

  it('lists an applet of a second plan for that plan only', async () => {
    await addExtra([startup]);
    assert.deepEqual(await slugs(acme), ['extra']);
    assert.deepEqual(await slugs(lab), ['token-gate']);
  });

  it("lists an applet enabled in one tenant's settings for that tenant only", async () => {
    const id = await addExtra([]);
    await gw.handle.db
      .update(tenants)
      .set({ enabledApplets: [id] })
      .where(eq(tenants.id, acmeId));
    assert.deepEqual(await slugs(acme), ['extra']);
    assert.deepEqual(await slugs(lab), ['token-gate'], 'tenant isolation: not for other tenants');
  });

  it('hides a disabled applet from every tenant, whatever its plans or settings', async () => {
    const id = await addExtra([startup, growup], false);
    await gw.handle.db.update(tenants).set({ enabledApplets: [id] });
    await gw.handle.db.update(applets).set({ enabled: false }).where(eq(applets.slug, 'token-gate'));
    assert.deepEqual(await slugs(acme), []);
    assert.deepEqual(await slugs(lab), []);
  });

  it('lists an applet in both plan and settings once, by name', async () => {
    const id = await addExtra([startup, growup]);
    await gw.handle.db.update(tenants).set({ enabledApplets: [id] });
    assert.deepEqual(await slugs(lab), ['extra', 'token-gate']);
  });

  it('answers 401 without a session and 403 to a user without a tenant', async () => {
    assert.equal((await gw.get('/v1/apps', null)).status, 401);
    const global = await gw.login('global');
    const reply = await gw.get('/v1/apps', global);
    assert.equal(reply.status, 403, reply.text);
  });
});
