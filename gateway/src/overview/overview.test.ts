// The overview (route `overview`, spec section 2): contacts over time and by source from the
// trigger-kept contact_days, the last campaigns with their rates, and usage against the plan.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { OVERVIEW_DAYS, type Overview } from '../contracts';
import { intOf, queryRows } from '../lib/raw-sql';
import { call, tenantId } from '../../test/audience-helpers';
import { startGateway, type TestGateway } from '../../test/helpers';

/** The single integer `n` a count query answers. */
async function countOf(gw: TestGateway, query: ReturnType<typeof sql>): Promise<number> {
  const [row] = await queryRows(gw.handle.db, query);
  return row ? intOf(row, 'n') : 0;
}

describe('GET /v1/overview', () => {
  let gw: TestGateway;
  let owner: string;
  let acme: string;

  before(async () => {
    gw = await startGateway();
    owner = await gw.login('acmeOwner');
    acme = await tenantId(gw, 'Acme DAO');
  });
  after(() => gw.close());

  const read = async (token = owner) => {
    const reply = await gw.get<Overview>('/v1/overview', token);
    assert.equal(reply.status, 200, reply.text);
    return reply.body;
  };

  it('counts the seeded contacts by source and ends the daily series at the total', async () => {
    const o = await read();
    assert.equal(
      o.contacts.total,
      await countOf(gw, sql`select count(*)::int as n from contacts where tenant_id = ${acme}`),
    );
    assert.equal(
      o.contacts.by_source.reduce((sum, s) => sum + s.count, 0),
      o.contacts.total,
    );
    assert.equal(o.contacts.days.length, OVERVIEW_DAYS);
    assert.equal(o.contacts.days.at(-1)?.total, o.contacts.total);
    const days = o.contacts.days.map((d) => d.day);
    assert.deepEqual([...days].sort(), days, 'oldest first');
  });

  it('follows contacts added and deleted today', async () => {
    const before = await read();
    const created = await call<{ _id: string }>(gw, 'POST', '/v1/contacts', owner, {
      email: 'overview-new@example.com',
    });
    assert.equal(created.status, 201, created.text);
    const afterAdd = await read();
    assert.equal(afterAdd.contacts.total, before.contacts.total + 1);
    assert.equal(afterAdd.contacts.days.at(-1)?.added, (before.contacts.days.at(-1)?.added ?? 0) + 1);
    const manual = (o: Overview) => o.contacts.by_source.find((s) => s.source === 'manual')?.count ?? 0;
    assert.equal(manual(afterAdd), manual(before) + 1);

    const removed = await call(gw, 'DELETE', `/v1/contacts/${created.body._id}`, owner);
    assert.ok(removed.status < 300, removed.text);
    const afterDelete = await read();
    assert.equal(afterDelete.contacts.total, before.contacts.total);
    assert.equal(afterDelete.contacts.days.at(-1)?.removed, (before.contacts.days.at(-1)?.removed ?? 0) + 1);
  });

  it('lists campaigns that started, newest first, with rates over delivered', async () => {
    await gw.handle.db.execute(sql`
      insert into campaigns (tenant_id, name, status, started_at, finished_at, recipients, sent, delivered, opened, clicked)
      values (${acme}, 'Older', 'sent', now() - interval '2 days', now() - interval '2 days', 100, 100, 80, 40, 8),
             (${acme}, 'Newer', 'sending', now() - interval '1 hour', null, 50, 10, 10, 1, 0),
             (${acme}, 'Draft', 'draft', null, null, 0, 0, 0, 0, 0)`);
    // The sending one has taken its audience: 10 delivered, 40 still queued.
    await gw.handle.db.execute(sql`
      with c as (update campaigns set audience_taken_at = now() where name = 'Newer' and tenant_id = ${acme} returning id)
      insert into campaign_recipients (campaign_id, tenant_id, address, status)
      select c.id, ${acme}, 'r' || g || '@example.com', case when g <= 10 then 'delivered' else 'queued' end
        from c, generate_series(1, 50) g`);
    const o = await read();
    assert.deepEqual(
      o.campaigns.map((c) => c.name),
      ['Newer', 'Older'],
    );
    const older = o.campaigns[1];
    assert.equal(older?.stats.open_rate, 0.5);
    assert.equal(older?.stats.click_rate, 0.1);
  });

  it('shows usage against the plan, and another tenant sees none of it', async () => {
    const o = await read();
    assert.ok(o.usage.limit > 0, 'every tenant has a limit');
    assert.equal(o.usage.warning_at, Math.floor(o.usage.limit * 0.8));
    assert.equal(o.usage.reserved, 40, 'the sending campaign still has 40 to send');
    const lab = await read(await gw.login('labOwner'));
    assert.equal(lab.campaigns.length, 0);
    const labId = await tenantId(gw, 'Lab Rats');
    assert.equal(
      lab.contacts.total,
      await countOf(gw, sql`select count(*)::int as n from contacts where tenant_id = ${labId}`),
      'its own contacts only',
    );
    assert.equal(lab.usage.reserved, 0);
  });

  it('a tenant deleted with its contacts leaves no days behind', async () => {
    const db = gw.handle.db;
    const [tenant] = await queryRows(
      db,
      sql`insert into tenants (name, plan_id) select 'Gone Guild', plan_id from tenants where id = ${acme} returning id`,
    );
    const id = String(tenant?.id);
    await db.execute(
      sql`insert into contacts (tenant_id, email) values (${id}, 'a@gone.test'), (${id}, 'b@gone.test')`,
    );
    assert.equal(await countOf(gw, sql`select count(*)::int as n from contact_days where tenant_id = ${id}`), 1);
    await db.execute(sql`delete from tenants where id = ${id}`);
    assert.equal(await countOf(gw, sql`select count(*)::int as n from contact_days where tenant_id = ${id}`), 0);
  });

  it('needs a session and a tenant', async () => {
    assert.equal((await gw.get('/v1/overview', null)).status, 401);
    assert.equal((await gw.get('/v1/overview', await gw.login('global'))).status, 403);
  });
});
