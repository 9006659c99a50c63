// GET /v1/tenants, /options and /stats for platform admins: every query parameter, the admin figures,
// stats consistent with the grid, and who may call them (spec sections 3 and 7).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { PLAN_KEYS, type Tenant, type TenantOptions, type TenantPage, type TenantStats } from '../contracts';
import { hashPassword } from '../auth/passwords';
import { queryRows, textOf } from '../lib/raw-sql';
import { type ErrorBody, startGateway, type TestGateway } from '../../test/helpers';
import { tenantId } from '../../test/audience-helpers';
import { dateBounds } from './list-query';

let gw: TestGateway;
let admin: string;
const db = () => gw.handle.db;
const DAY = 86_400_000;

/** Extra tenants created days ago (name → days ago), all on the basic plan. */
const AGED: Record<string, number> = { 'Aged 3': 3, 'Aged 20': 20, 'Aged 45': 45, 'Aged 400': 400 };

before(async () => {
  gw = await startGateway();
  admin = await gw.login('admin');
  for (const [name, days] of Object.entries(AGED)) {
    await db().execute(
      sql`insert into tenants (name, plan_id, created_at)
          select ${name}, id, ${new Date(Date.now() - days * DAY)} from plans where key = 'basic'`,
    );
  }
  // Contacts through the counters' triggers; e-mails sent this period.
  const acme = await tenantId(gw, 'Acme DAO');
  const lab = await tenantId(gw, 'Lab Rats');
  await db().execute(
    sql`insert into contacts (tenant_id, email) select ${lab}::uuid, 'c' || g || '@lab.test' from generate_series(1, 7) g`,
  );
  const today = new Date().toISOString().slice(0, 10);
  await db().execute(
    sql`insert into email_usage (tenant_id, day, sent) values (${acme}::uuid, ${today}::date, 120), (${lab}::uuid, ${today}::date, 30)`,
  );
});
after(() => gw.close());

async function page(query: string, token = admin): Promise<TenantPage> {
  const r = await gw.get<TenantPage>(`/v1/tenants${query}`, token);
  assert.equal(r.status, 200, `${query}: ${r.text}`);
  return r.body;
}
const names = (p: TenantPage) => p.records.map((t) => t.name);
const allNames = async (query: string) =>
  names(await page(`${query}${query.includes('?') ? '&' : '?'}perPage=1000`)).sort();

describe('the tenant list', () => {
  it("carries each record's admin figures", async () => {
    const p = await page('?searchString=acme');
    const acme = p.records[0];
    assert.equal(acme?.admin?.emails_sent, 120);
    assert.equal(acme?.admin?.billing_state, 'active');
    assert.ok((acme?.admin?.email_volume ?? 0) > 0);
    assert.ok((acme?.admin?.contacts ?? 0) > 0, 'the demo audience');
    assert.deepEqual(acme?.admin?.settings, {
      tax_rate: 21,
      email_volume_override: null,
      enabled_applets: [],
      billing_customer_id: 'cus_acme_demo',
      sending_paused: false,
    });
    const lab = (await page('?searchString=lab%20rats')).records[0];
    assert.equal(lab?.admin?.contacts, 7);
    assert.equal(lab?.admin?.billing_state, 'no_billing');
  });

  it("searches the name and the owner's e-mail", async () => {
    assert.deepEqual(names(await page('?searchString=ACME')), ['Acme DAO']);
    assert.deepEqual(names(await page('?searchString=owner%40lab')), ['Lab Rats']);
    assert.deepEqual(names(await page('?searchString=nobody-here')), []);
    // LIKE wildcards match literally.
    assert.deepEqual(names(await page('?searchString=%25')), []);
  });

  it('limits created_at to each date range (UTC), custom included; bad dates are a 400', async () => {
    const now = new Date();
    const created = new Map<string, Date>();
    for (const t of (await page('?perPage=1000')).records) created.set(t.name, new Date(t.created_at));
    for (const range of [
      'all_time',
      'today',
      'last_7_days',
      'last_30_days',
      'this_month',
      'last_month',
      'this_year',
    ] as const) {
      const b = dateBounds({ dateRange: range }, now);
      const expected = [...created]
        .filter(([, at]) => (!b.from || at >= b.from) && (!b.to || at < b.to))
        .map(([n]) => n)
        .sort();
      assert.deepEqual(await allNames(`?dateRange=${range}`), expected, range);
    }
    const from = new Date(now.getTime() - 50 * DAY).toISOString().slice(0, 10);
    const to = new Date(now.getTime() - 10 * DAY).toISOString().slice(0, 10);
    assert.deepEqual(await allNames(`?dateRange=custom&dateFrom=${from}&dateTo=${to}`), ['Aged 20', 'Aged 45']);
    for (const bad of [
      'dateRange=custom',
      'dateRange=custom&dateFrom=2026-02-30&dateTo=2026-03-01',
      `dateRange=custom&dateFrom=${to}&dateTo=${from}`,
      'dateRange=yesterday',
      'dateRange=custom&dateFrom=01.02.2026&dateTo=2026-03-01',
    ]) {
      const r = await gw.get<ErrorBody>(`/v1/tenants?${bad}`, admin);
      assert.equal(r.status, 400, bad);
      assert.ok(r.body.errors, bad);
    }
  });

  it('filters by plan, billing state and sending paused, alone or as JSON; bad filters are a 400', async () => {
    assert.deepEqual(await allNames('?filterField=plan&filterValue=startup'), ['Acme DAO']);
    assert.deepEqual(await allNames(`?filters=${encodeURIComponent('{"plan":["startup","growup"]}')}`), [
      'Acme DAO',
      'Lab Rats',
    ]);
    assert.deepEqual(await allNames('?filterField=billing_state&filterValue=active'), ['Acme DAO']);
    const acme = await tenantId(gw, 'Acme DAO');
    await db().execute(sql`update billing_accounts set payment_method_failing = true where tenant_id = ${acme}::uuid`);
    assert.deepEqual(await allNames('?filterField=billing_state&filterValue=past_due'), ['Acme DAO']);
    assert.deepEqual(await allNames('?filterField=billing_state&filterValue=active'), []);
    await db().execute(sql`update billing_accounts set payment_method_failing = false where tenant_id = ${acme}::uuid`);
    assert.equal((await allNames('?filterField=billing_state&filterValue=no_billing')).length, 7);
    assert.deepEqual(await allNames('?filterField=billing_state&filterValue=canceled'), []);
    const lab = await tenantId(gw, 'Lab Rats');
    await db().execute(sql`update tenants set sending_paused = true where id = ${lab}::uuid`);
    assert.deepEqual(await allNames('?filterField=sending_paused&filterValue=true'), ['Lab Rats']);
    assert.equal((await allNames(`?filters=${encodeURIComponent('{"sending_paused":[false]}')}`)).length, 7);
    // Both forms at once: AND.
    assert.deepEqual(
      await allNames(
        `?filterField=sending_paused&filterValue=true&filters=${encodeURIComponent('{"plan":["startup"]}')}`,
      ),
      [],
    );
    await db().execute(sql`update tenants set sending_paused = false where id = ${lab}::uuid`);
    for (const bad of ['{plan', '"plan"', '{"owner":["x"]}', '{"plan":["gold"]}', '{"billing_state":["late"]}']) {
      const r = await gw.get<ErrorBody>(`/v1/tenants?filters=${encodeURIComponent(bad)}`, admin);
      assert.equal(r.status, 400, bad);
      assert.ok(r.body.errors?.filters, bad);
    }
    for (const bad of [
      'filterField=plan&filterValue=gold',
      'filterField=plan',
      'filterValue=basic',
      'filterField=colour&filterValue=x',
    ]) {
      assert.equal((await gw.get(`/v1/tenants?${bad}`, admin)).status, 400, bad);
    }
  });

  it("selects tenants whose owner's e-mail is in a list of the platform tenant (listId)", async () => {
    const platform = await tenantId(gw, 'Console Platform');
    const [list] = await queryRows(
      db(),
      sql`insert into lists (tenant_id, name) values (${platform}::uuid, 'Owners on trial') returning id::text`,
    );
    const listId = textOf(list ?? {}, 'id') ?? '';
    await db().execute(
      sql`with c as (insert into contacts (tenant_id, email) values (${platform}::uuid, 'OWNER@lab.test') returning id)
          insert into list_members (list_id, contact_id) select ${listId}::uuid, id from c`,
    );
    assert.deepEqual(await allNames(`?listId=${listId}`), ['Lab Rats']);
    const options = await gw.get<TenantOptions>('/v1/tenants/options', admin);
    assert.ok(options.body.lists.some((l) => l.value === listId && l.label === 'Owners on trial'));
    // Another tenant's list, or no list at all: 400.
    const acme = await tenantId(gw, 'Acme DAO');
    const [other] = await queryRows(db(), sql`select id::text from lists where tenant_id = ${acme}::uuid limit 1`);
    assert.equal((await gw.get(`/v1/tenants?listId=${textOf(other ?? {}, 'id')}`, admin)).status, 400);
    assert.equal((await gw.get('/v1/tenants?listId=nope', admin)).status, 400);
  });

  it('selects one tenant by tenantId; includeOwner adds owner and users', async () => {
    const lab = await tenantId(gw, 'Lab Rats');
    const p = await page(`?tenantId=${lab}&includeOwner=true`);
    assert.deepEqual(names(p), ['Lab Rats']);
    assert.equal(p.records[0]?.owner?.email, 'owner@lab.test');
    assert.equal(p.records[0]?.users?.length, 1);
    assert.equal((await page(`?tenantId=${lab}&includeOwner=false`)).records[0]?.owner, undefined);
    assert.equal((await gw.get('/v1/tenants?tenantId=not-a-uuid', admin)).status, 400);
    assert.deepEqual(names(await page('?tenantId=00000000-0000-4000-8000-000000000000')), []);
  });

  it('sorts on each field in both orders, and pages without overlap', async () => {
    const value: Record<string, (t: Tenant) => string | number> = {
      created_at: (t) => t.created_at,
      name: (t) => t.name.toLowerCase(),
      contacts: (t) => t.admin?.contacts ?? -1,
      emails_sent: (t) => t.admin?.emails_sent ?? -1,
      plan: (t) => PLAN_KEYS.indexOf(t.plan.key),
    };
    for (const [field, of] of Object.entries(value)) {
      const asc = (await page(`?sortField=${field}&sortOrder=asc&perPage=1000`)).records;
      const desc = (await page(`?sortField=${field}&sortOrder=desc&perPage=1000`)).records;
      for (let i = 1; i < asc.length; i++) {
        const [a, b] = [of(asc[i - 1] as Tenant), of(asc[i] as Tenant)];
        assert.ok(a <= b, `${field} asc: ${String(a)} then ${String(b)}`);
      }
      assert.deepEqual(
        desc.map((t) => t._id),
        asc.map((t) => t._id).reverse(),
        `${field}: desc is asc reversed`,
      );
      // Pages of 3 put together are the whole list.
      const pages: string[] = [];
      for (let n = 1; n <= 3; n++)
        pages.push(...(await page(`?sortField=${field}&sortOrder=asc&perPage=3&page=${n}`)).records.map((t) => t._id));
      assert.deepEqual(
        pages,
        asc.map((t) => t._id),
        `${field}: pages`,
      );
    }
    assert.deepEqual(
      (await page('?sortField=emails_sent&sortOrder=desc&perPage=2')).records.map((t) => t.name),
      ['Acme DAO', 'Lab Rats'],
    );
    assert.equal((await gw.get('/v1/tenants?sortField=owner', admin)).status, 400);
    const p = await page('?perPage=3&page=3');
    assert.deepEqual(p.pagination, { starting: 7, ending: 8, count: 8, previous: 2, next: null });
  });
});

describe('GET /v1/tenants/stats', () => {
  it('describes exactly the tenants the same query lists', async () => {
    const queries = [
      '',
      '?dateRange=last_30_days',
      '?dateRange=this_year',
      '?filterField=plan&filterValue=basic',
      '?searchString=a',
      `?filters=${encodeURIComponent('{"billing_state":["active","no_billing"]}')}`,
      '?dateRange=today&filterField=sending_paused&filterValue=false',
    ];
    for (const q of queries) {
      const grid = await page(`${q}${q ? '&' : '?'}perPage=1000`);
      const r = await gw.get<TenantStats>(`/v1/tenants/stats${q}`, admin);
      assert.equal(r.status, 200, r.text);
      const s = r.body;
      assert.equal(s.tenants, grid.pagination.count, q);
      assert.equal(
        s.by_plan.reduce((n, p) => n + p.tenants, 0),
        s.tenants,
        q,
      );
      for (const p of s.by_plan)
        assert.equal(p.tenants, grid.records.filter((t) => t.plan.key === p.key).length, `${q} ${p.key}`);
      assert.equal(
        s.contacts,
        grid.records.reduce((n, t) => n + (t.admin?.contacts ?? 0), 0),
        q,
      );
      assert.equal(s.new_tenants.reduce((n, p) => n + p.value, 0) <= s.tenants, true, q);
      assert.equal(s.currency, 'USD');
    }
    const all = (await gw.get<TenantStats>('/v1/tenants/stats', admin)).body;
    assert.equal(all.emails_sent, 150);
    assert.ok(all.mrr_cents > 0, 'Acme pays monthly');
    assert.equal(all.new_tenants.length, 90);
    // Tenants created within the last 90 days: all but "Aged 400".
    assert.equal(
      all.new_tenants.reduce((n, p) => n + p.value, 0),
      7,
    );
    const none = (
      await gw.get<TenantStats>('/v1/tenants/stats?filterField=plan&filterValue=scaleup&searchString=zzz', admin)
    ).body;
    assert.equal(none.tenants, 0);
    assert.equal(none.mrr_cents, 0);
    assert.equal((await gw.get('/v1/tenants/stats?filters=%7B', admin)).status, 400);
  });
});

describe('GET /v1/tenants/options', () => {
  it('offers plans, billing states, date ranges and the platform lists', async () => {
    const r = await gw.get<TenantOptions>('/v1/tenants/options', admin);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.body.plans.map((p) => p.value),
      [...PLAN_KEYS],
    );
    assert.deepEqual(
      r.body.billing_states.map((p) => p.value),
      ['no_billing', 'active', 'past_due', 'canceled'],
    );
    assert.equal(r.body.date_ranges[0]?.label, 'All time');
    assert.equal(r.body.date_ranges.length, 8);
  });
});

describe('who may administer tenants', () => {
  it('is platform staff with admin_tenants only: tenant users and a super admin without it get 403', async () => {
    const lab = await tenantId(gw, 'Lab Rats');
    await db().execute(
      sql`insert into users (tenant_id, email, password_hash, role, permissions)
          select tenant_id, 'noadmin@console.test', ${await hashPassword('no-admin-pass-2026')}, 'super_admin', '{admin_plans}'
            from users where email = 'admin@console.test'`,
    );
    const r = await gw.post<{ token: string }>('/v1/auth/login', {
      email: 'noadmin@console.test',
      password: 'no-admin-pass-2026',
    });
    assert.equal(r.status, 200, r.text);
    const callers = {
      acmeOwner: await gw.login('acmeOwner'),
      acmeStaff: await gw.login('acmeStaff'),
      labOwner: await gw.login('labOwner'),
      superWithout: r.body.token,
    };
    const routes: [string, string, unknown?][] = [
      ['GET', '/v1/tenants'],
      ['GET', '/v1/tenants/options'],
      ['GET', '/v1/tenants/stats'],
      ['POST', '/v1/tenants', { name: 'X', plan_id: lab, owner_first_name: 'X', owner_email: 'x@x.test' }],
      ['GET', `/v1/tenants/${lab}`],
      ['PATCH', `/v1/tenants/${lab}`, { name: 'Mine now' }],
      ['PATCH', `/v1/tenants/${lab}/settings`, { sending_paused: true }],
      ['DELETE', `/v1/tenants/${lab}`],
      ['GET', `/v1/tenants/${lab}/resend-welcome-email`],
      ['GET', '/v1/admin/dashboard'],
    ];
    for (const [who, token] of Object.entries(callers)) {
      for (const [method, path, body] of routes) {
        const res = await gw.request(path, { method, token, body });
        assert.equal(res.status, 403, `${who} ${method} ${path}: ${res.text}`);
      }
    }
    for (const [method, path, body] of routes) {
      assert.equal((await gw.request(path, { method, body })).status, 401, `${method} ${path}`);
    }
    // Nothing changed.
    assert.deepEqual(names(await page(`?tenantId=${lab}`)), ['Lab Rats']);
  });
});
