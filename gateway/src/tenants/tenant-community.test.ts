// Every tenant has its community from the moment it exists (seed, checkout; an existing database gets
// the missing ones from migration 0010), so a new tenant can create a widget in its first hour.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { SLUG_PATTERN, type Community, type List, type WidgetDetail } from '../contracts';
import { communities, lists, plans, tenants } from '../db/schema';
import { COMMUNITY_LIST_NAME } from '../onboarding/community/community-store';
import { FALLBACK_SLUG, slugCandidate, slugFromName } from '../onboarding/onboarding-rules';
import { call } from '../../test/audience-helpers';
import { removeCommunities } from '../../test/community-helpers';
import { startGateway, type TestGateway, type Who } from '../../test/helpers';

describe('slugFromName (pure)', () => {
  it('derives a valid, never empty alias', () => {
    const cases: [string, string][] = [
      ['Acme DAO', 'acme-dao'],
      ['  Lab   Rats!! ', 'lab-rats'],
      ['Café Crème', 'cafe-creme'],
      ['Ünïcödé — Guild', 'unicode-guild'],
      ['$$$', FALLBACK_SLUG],
      ['', FALLBACK_SLUG],
      ['日本', FALLBACK_SLUG],
      ['web3_builders.io', 'web3-builders-io'],
    ];
    for (const [name, slug] of cases) assert.equal(slugFromName(name), slug, name);
  });

  it('cuts long names at a word, leaving room for a suffix, and always matches the alias pattern', () => {
    const long = slugFromName(`${'community '.repeat(30)}end`);
    assert.ok(long.length <= 92, String(long.length));
    assert.ok(!long.endsWith('-'));
    assert.equal(slugFromName('x'.repeat(300)).length, 92);
    for (const name of ['Acme DAO', 'x'.repeat(300), `${'ab '.repeat(60)}`, '-a-', 'ÀÉÎ', '1 2 3']) {
      assert.match(slugCandidate(slugFromName(name), 12), SLUG_PATTERN, name);
    }
  });
});

let gw: TestGateway;
const tokens = new Map<Who, string>();
const tokenOf = async (who: Who) => tokens.get(who) ?? tokens.set(who, await gw.login(who)).get(who) ?? '';

before(async () => {
  gw = await startGateway();
});
after(() => gw.close());

describe('the community every tenant gets', () => {
  it('exists for every seeded tenant: titled with its name, a unique alias, not enabled, with its list', async () => {
    const rows = await gw.handle.db
      .select({ tenant: tenants.name, c: communities })
      .from(tenants)
      .leftJoin(communities, eq(communities.tenantId, tenants.id));
    assert.ok(rows.length >= 4);
    const slugs = new Set<string>();
    for (const { tenant, c } of rows) {
      assert.ok(c, `${tenant} has a community`);
      assert.equal(c.title, tenant);
      assert.match(c.slug, SLUG_PATTERN);
      assert.equal(c.slug, slugFromName(tenant));
      assert.ok(!slugs.has(c.slug), 'aliases are unique');
      slugs.add(c.slug);
      assert.deepEqual([c.public, c.show, c.showOnCarousel], [false, false, false], 'not enabled yet');
      assert.ok(c.listId);
      const [list] = await gw.handle.db.select().from(lists).where(eq(lists.id, c.listId));
      assert.equal(list?.communityId, c.id);
      assert.equal(list?.name, COMMUNITY_LIST_NAME);
    }
  });

  it('answers GET /v1/communities/my-community with a non-empty alias for each owner', async () => {
    for (const who of ['acmeOwner', 'basicOwner', 'labOwner'] as const) {
      const r = await gw.get<Community>('/v1/communities/my-community', await tokenOf(who));
      assert.equal(r.status, 200, `${who}: ${r.text}`);
      assert.ok(r.body.alias.length > 0);
      assert.equal(r.body.alias, r.body.slug);
    }
  });

  it('lets a seeded tenant create a widget right away', async () => {
    const owner = await tokenOf('basicOwner');
    const target = await call<List>(gw, 'POST', '/v1/lists', owner, { name: 'First-hour newsletter' });
    assert.equal(target.status, 201, target.text);
    const w = await call<WidgetDetail>(gw, 'POST', '/v1/widgets', owner, {
      type: 'Subscription Widget',
      target_id: target.body._id,
      url: 'https://basic.example.com',
    });
    assert.equal(w.status, 201, w.text);
  });
});

describe('migration 0010 (existing databases)', () => {
  const migration = fs.readFileSync(
    path.join(import.meta.dirname, '..', '..', 'drizzle', '0010_tenant_communities.sql'),
    'utf8',
  );
  const runMigration = () => gw.handle.db.execute(sql.raw(migration));

  it('gives each tenant without a community one, with a free alias and list name, and touches no other', async () => {
    const db = gw.handle.db;
    const [plan] = await db.select({ id: plans.id }).from(plans).limit(1);
    assert.ok(plan);
    const before = await db.select().from(communities);
    // Tenants from before: no community. One is named like a seeded tenant (its alias is taken), one has
    // only symbols in its name, one already has a list named like the community's list.
    const made = await db
      .insert(tenants)
      .values([
        { name: 'Acme DAO', planId: plan.id },
        { name: '***', planId: plan.id },
        { name: 'Old Guild', planId: plan.id },
      ])
      .returning({ id: tenants.id, name: tenants.name });
    const oldGuild = made.find((t) => t.name === 'Old Guild');
    assert.ok(oldGuild);
    await db.insert(lists).values({ tenantId: oldGuild.id, name: COMMUNITY_LIST_NAME });
    await removeCommunities(gw, ['Lab Rats']);

    await runMigration();
    await runMigration(); // idempotent: nothing more the second time

    const after = await db.select().from(communities);
    assert.equal(after.length, before.length + 3, 'three new (Lab Rats got its back)');
    const bySlug = new Map(after.map((c) => [c.slug, c]));
    const mine = (tenantId: string) => after.find((c) => c.tenantId === tenantId);
    for (const t of made) assert.ok(mine(t.id), `${t.name} has one now`);
    assert.equal(mine(made[0]?.id ?? '')?.slug, 'acme-dao-2', 'a taken alias gets a suffix');
    assert.equal(mine(made[1]?.id ?? '')?.slug, FALLBACK_SLUG, 'a name of symbols only');
    assert.ok(bySlug.get('lab-rats'), 'Lab Rats has its community back');
    for (const c of before.filter((x) => x.slug !== 'lab-rats')) {
      assert.deepEqual(bySlug.get(c.slug), c, 'existing communities untouched');
    }
    const oldLists = await db.select().from(lists).where(eq(lists.tenantId, oldGuild.id));
    const tied = oldLists.find((l) => l.communityId === mine(oldGuild.id)?.id);
    assert.equal(tied?.name, `${COMMUNITY_LIST_NAME} 2`, 'the list name avoids an existing list');
    assert.equal(mine(oldGuild.id)?.listId, tied?.id);
  });
});
