// Create (welcome e-mail → set a password → sign in), edit, settings, resend, delete and the platform
// dashboard, for platform admins (spec sections 2 and 7).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type { EmailUsage, PlatformDashboard, Tenant, TenantPage } from '../contracts';
import { hashPassword } from '../auth/passwords';
import { intOf, queryRows, textOf } from '../lib/raw-sql';
import { type ErrorBody, linkIn, type Mail, startGateway, type TestGateway } from '../../test/helpers';
import { tenantId } from '../../test/audience-helpers';
import { waitUntil } from '../../test/campaign-send-helpers';

let gw: TestGateway;
let admin: string;
const db = () => gw.handle.db;
const planId = async (key: string) => {
  const [row] = await queryRows(db(), sql`select id::text from plans where key = ${key}`);
  return textOf(row ?? {}, 'id') ?? '';
};
const call = <T = unknown>(method: string, path: string, body?: unknown, token: string | null = admin) =>
  gw.request<T>(path, { method, body, token });

/** The user id and token of a welcome link (`<console>/reset/<user>/<token>`). */
function resetOf(mail: Mail): { user_id: string; reset_token: string } {
  const link = linkIn(mail, `${gw.config.consoleUrl}/reset/`);
  const [userId, token] = link.slice(`${gw.config.consoleUrl}/reset/`.length).split('/');
  return { user_id: decodeURIComponent(userId ?? ''), reset_token: decodeURIComponent(token ?? '') };
}

before(async () => {
  gw = await startGateway();
  admin = await gw.login('admin');
});
after(() => gw.close());

describe('POST /v1/tenants', () => {
  it('creates tenant, community and owner; the welcome link sets a password and the owner signs in', async () => {
    const r = await call<Tenant>('POST', '/v1/tenants', {
      name: 'New Guild',
      plan_id: await planId('growup'),
      owner_first_name: 'Nina',
      owner_last_name: 'New',
      owner_email: 'nina@newguild.test',
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.name, 'New Guild');
    assert.equal(r.body.plan.key, 'growup');
    assert.equal(r.body.owner?.email, 'nina@newguild.test');
    assert.equal(r.body.owner?.role, 'tenant_admin');
    const [community] = await queryRows(db(), sql`select title from communities where tenant_id = ${r.body._id}::uuid`);
    assert.equal(textOf(community ?? {}, 'title'), 'New Guild');
    // No password works yet.
    assert.equal((await gw.post('/v1/auth/login', { email: 'nina@newguild.test', password: '!unset' })).status, 401);
    const mail = await gw.waitForMail('nina@newguild.test', /Welcome/);
    assert.match(mail.text, /owner of New Guild/);
    const reset = await gw.post('/v1/auth/reset', { ...resetOf(mail), password: 'nina-pass-2026-long' });
    assert.equal(reset.status, 200, reset.text);
    const login = await gw.post<{ token: string }>('/v1/auth/login', {
      email: 'nina@newguild.test',
      password: 'nina-pass-2026-long',
    });
    assert.equal(login.status, 200, login.text);
    const own = await gw.get<Tenant>('/v1/tenants/current', login.body.token);
    assert.equal(own.body.name, 'New Guild');
    // Owner permissions as the team's owner preset: the owner manages users.
    assert.equal((await gw.get('/v1/users', login.body.token)).status, 200);
    // The password is set: no second welcome.
    assert.equal((await call('GET', `/v1/tenants/${r.body._id}/resend-welcome-email`)).status, 409);
  });

  it('answers bad input with field errors, and an e-mail in use on owner_email', async () => {
    const bad = await call<ErrorBody>('POST', '/v1/tenants', {
      name: '',
      plan_id: 'x',
      owner_first_name: '',
      owner_email: 'nope',
    });
    assert.equal(bad.status, 400);
    for (const f of ['name', 'owner_first_name', 'owner_email']) assert.ok(bad.body.errors?.[f], f);
    const plan = await call<ErrorBody>('POST', '/v1/tenants', {
      name: 'A',
      plan_id: 'x',
      owner_first_name: 'A',
      owner_email: 'a@a.test',
    });
    assert.deepEqual(Object.keys(plan.body.errors ?? {}), ['plan_id']);
    const taken = await call<ErrorBody>('POST', '/v1/tenants', {
      name: 'Copy',
      plan_id: await planId('basic'),
      owner_first_name: 'A',
      owner_email: 'OWNER@acme.test',
    });
    assert.equal(taken.status, 400);
    assert.deepEqual(Object.keys(taken.body.errors ?? {}), ['owner_email']);
    const none = await gw.get<TenantPage>('/v1/tenants?searchString=Copy', admin);
    assert.equal(none.body.pagination.count, 0);
  });
});

describe('GET /v1/tenants/{id}/resend-welcome-email', () => {
  it('sends a new link; the old one is dead', async () => {
    const r = await call<Tenant>('POST', '/v1/tenants', {
      name: 'Resend Co',
      plan_id: await planId('basic'),
      owner_first_name: 'Rita',
      owner_email: 'rita@resend.test',
    });
    assert.equal(r.status, 201, r.text);
    const first = resetOf(await gw.waitForMail('rita@resend.test', /Welcome/));
    const again = await call('GET', `/v1/tenants/${r.body._id}/resend-welcome-email`);
    assert.equal(again.status, 200, again.text);
    const second = resetOf(await gw.waitForMail('rita@resend.test', /Welcome/, 2));
    assert.notEqual(first.reset_token, second.reset_token);
    assert.equal((await gw.post('/v1/auth/reset', { ...first, password: 'rita-pass-2026-long' })).status, 400);
    assert.equal((await gw.post('/v1/auth/reset', { ...second, password: 'rita-pass-2026-long' })).status, 200);
    assert.equal(
      (await call('GET', '/v1/tenants/00000000-0000-4000-8000-000000000000/resend-welcome-email')).status,
      404,
    );
  });
});

describe('PATCH /v1/tenants/{id}', () => {
  it('changes name and plan, the plan at once for its sessions; the notice dates are a 400', async () => {
    const basic = await tenantId(gw, 'Basic Guild');
    const owner = await gw.login('basicOwner');
    const before = await gw.post<{ user: { features: string[] } }>('/v1/auth/verify', { token: owner });
    const r = await call<Tenant>('PATCH', `/v1/tenants/${basic}`, {
      name: 'Basic Guild Plus',
      plan_id: await planId('growup'),
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.name, 'Basic Guild Plus');
    assert.equal(r.body.plan.key, 'growup');
    const after = await gw.post<{ user: { features: string[] } }>('/v1/auth/verify', { token: owner });
    assert.ok(after.body.user.features.length > before.body.user.features.length, 'growup grants more features');
    for (const body of [
      { last_warning_sent_date: '2026-01-01' },
      { last_limit_sent_date: null },
      { name: 'X', colour: 'red' },
    ]) {
      assert.equal((await call('PATCH', `/v1/tenants/${basic}`, body)).status, 400, JSON.stringify(body));
    }
    assert.equal((await call('PATCH', `/v1/tenants/${basic}`, { plan_id: 'gold' })).status, 400);
    assert.equal((await call('PATCH', `/v1/tenants/${basic}`, { name: '' })).status, 400);
    assert.equal((await call('PATCH', '/v1/tenants/00000000-0000-4000-8000-000000000000', { name: 'Y' })).status, 404);
  });
});

describe('PATCH /v1/tenants/{id}/settings', () => {
  it('stores tax rate, volume override (usage follows), applets, customer id and sending paused', async () => {
    const acme = await tenantId(gw, 'Acme DAO');
    const owner = await gw.login('acmeOwner');
    const usage = async () => (await gw.get<EmailUsage>('/v1/usage', owner)).body;
    const planLimit = (await usage()).limit;
    const [applet] = await queryRows(
      db(),
      sql`insert into applets (name, slug, manifest_url, module) values ('Gate', 'gate', 'https://a.test/mf-manifest.json', './Page') returning id::text`,
    );
    const appletId = textOf(applet ?? {}, 'id') ?? '';
    const r = await call<Tenant>('PATCH', `/v1/tenants/${acme}/settings`, {
      tax_rate: 7.5,
      email_volume_override: 123,
      enabled_applets: [appletId],
      billing_customer_id: 'cus_new',
      sending_paused: true,
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.admin?.settings, {
      tax_rate: 7.5,
      email_volume_override: 123,
      enabled_applets: [appletId],
      billing_customer_id: 'cus_new',
      sending_paused: true,
    });
    assert.equal(r.body.admin?.email_volume, 123);
    assert.equal((await usage()).limit, 123);
    assert.equal((await usage()).warning_at, Math.ceil(123 * 0.8));
    const back = await call<Tenant>('PATCH', `/v1/tenants/${acme}/settings`, {
      email_volume_override: null,
      sending_paused: false,
    });
    assert.equal(back.body.admin?.settings.tax_rate, 7.5, 'other settings stay');
    assert.equal((await usage()).limit, planLimit);
    for (const body of [
      { tax_rate: 101 },
      { tax_rate: -1 },
      { email_volume_override: -5 },
      { email_volume_override: 1.5 },
      { enabled_applets: ['00000000-0000-4000-8000-000000000000'] },
      { enabled_applets: ['nope'] },
      { sending_paused: 'yes' },
    ]) {
      const res = await call<ErrorBody>('PATCH', `/v1/tenants/${acme}/settings`, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.ok(res.body.errors, JSON.stringify(body));
    }
  });
});

describe('DELETE /v1/tenants/{id}', () => {
  it('removes the tenant from lists at once, ends its sessions, and a job removes its data', async () => {
    const lab = await tenantId(gw, 'Lab Rats');
    const owner = await gw.login('labOwner');
    const [ownerRow] = await queryRows(db(), sql`select id::text from users where email = 'owner@lab.test'`);
    await db().execute(
      sql`insert into contacts (tenant_id, email) select ${lab}::uuid, 'd' || g || '@lab.test' from generate_series(1, 2500) g`,
    );
    const r = await call('DELETE', `/v1/tenants/${lab}`);
    assert.equal(r.status, 200, r.text);
    assert.equal((await gw.get<TenantPage>('/v1/tenants?searchString=Lab', admin)).body.pagination.count, 0);
    assert.equal((await call('GET', `/v1/tenants/${lab}`)).status, 404);
    assert.equal((await gw.get('/v1/tenants/current', owner)).status, 401);
    assert.equal((await gw.post('/v1/auth/login', { email: 'owner@lab.test', password: 'lab-pass-2026' })).status, 401);
    const imp = await gw.post('/v1/auth/impersonate', { user_id: textOf(ownerRow ?? {}, 'id') }, admin);
    assert.equal(imp.status, 404, imp.text);
    assert.equal((await call('DELETE', `/v1/tenants/${lab}`)).status, 404, 'already deleted');
    await waitUntil(
      async () => {
        const [left] = await queryRows(db(), sql`select count(*)::int as n from users where tenant_id = ${lab}::uuid`);
        return intOf(left ?? {}, 'n') === 0;
      },
      60_000,
      'tenant data removed',
    );
    for (const table of ['contacts', 'lists', 'communities', 'contact_counts', 'email_usage']) {
      const [n] = await queryRows(
        db(),
        sql`select count(*)::int as n from ${sql.identifier(table)} where tenant_id = ${lab}::uuid`,
      );
      assert.equal(intOf(n ?? {}, 'n'), 0, table);
    }
    // The tenant row stays as a tombstone (the dashboard's churn), never listed.
    const [tomb] = await queryRows(
      db(),
      sql`select deleted_at is not null as deleted from tenants where id = ${lab}::uuid`,
    );
    assert.equal(tomb?.deleted, true);
    const [users] = await queryRows(db(), sql`select count(*)::int as n from users where email = 'owner@lab.test'`);
    assert.equal(intOf(users ?? {}, 'n'), 0);
  });

  it("refuses the platform tenant and the caller's own tenant", async () => {
    const platform = await tenantId(gw, 'Console Platform');
    const p = await call<ErrorBody>('DELETE', `/v1/tenants/${platform}`);
    assert.equal(p.status, 400);
    assert.equal(p.body.message, 'The platform tenant cannot be deleted.');
    const acme = await tenantId(gw, 'Acme DAO');
    await db().execute(
      sql`insert into users (tenant_id, email, password_hash, role, permissions)
          values (${acme}::uuid, 'inside@acme.test', ${await hashPassword('inside-pass-2026')}, 'super_admin', '{admin_tenants}')`,
    );
    const inside = await gw.post<{ token: string }>('/v1/auth/login', {
      email: 'inside@acme.test',
      password: 'inside-pass-2026',
    });
    const own = await call<ErrorBody>('DELETE', `/v1/tenants/${acme}`, undefined, inside.body.token);
    assert.equal(own.status, 409);
    assert.equal(own.body.message, 'You cannot delete your own tenant.');
    await db().execute(sql`delete from users where email = 'inside@acme.test'`);
    gw.sessionsChanged();
  });
});

describe('GET /v1/admin/dashboard', () => {
  it('gives tenants by plan, new and churned tenants, MRR, e-mails per day and the worst senders', async () => {
    const acme = await tenantId(gw, 'Acme DAO');
    const basic = await tenantId(gw, 'Basic Guild Plus');
    const today = new Date().toISOString().slice(0, 10);
    await db()
      .execute(sql`insert into email_usage (tenant_id, day, sent) values (${acme}::uuid, ${today}::date, 1000), (${basic}::uuid, ${today}::date, 200)
                           on conflict (tenant_id, day) do update set sent = excluded.sent`);
    const [c] = await queryRows(
      db(),
      sql`insert into campaigns (tenant_id, name) values (${acme}::uuid, 'Spammy') returning id::text`,
    );
    const minute = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    await db().execute(sql`insert into campaign_event_minutes (campaign_id, minute, type, count)
                           values (${textOf(c ?? {}, 'id')}::uuid, ${minute}, 'bounced', 30), (${textOf(c ?? {}, 'id')}::uuid, ${minute}, 'complained', 1)`);
    const r = await gw.get<PlatformDashboard>('/v1/admin/dashboard', admin);
    assert.equal(r.status, 200, r.text);
    const d = r.body;
    const live = await gw.get<TenantPage>('/v1/tenants?perPage=1000', admin);
    assert.equal(
      d.tenants_by_plan.reduce((n, p) => n + p.tenants, 0),
      live.body.pagination.count,
    );
    assert.equal(d.new_tenants.length, 90);
    // Every tenant ever created here was new today (the deleted one too); one was deleted today.
    assert.equal(d.new_tenants.at(-1)?.value, live.body.pagination.count + 1);
    assert.equal(d.churned_tenants.at(-1)?.value, 1);
    const stats = await gw.get<{ mrr_cents: number }>('/v1/tenants/stats', admin);
    assert.equal(d.mrr_cents, stats.body.mrr_cents);
    assert.ok(d.mrr_cents > 0);
    assert.equal(d.emails_sent.length, 30);
    assert.equal(d.emails_sent.at(-1)?.date, today);
    assert.equal(d.emails_sent.at(-1)?.value, 1200);
    assert.deepEqual(
      d.senders.map((s) => [s.tenant_name, s.sent, s.bounce_rate, s.complaint_rate, s.flagged]),
      [
        ['Acme DAO', 1000, 0.03, 0.001, true],
        ['Basic Guild Plus', 200, 0, 0, false],
      ],
    );
  });
});
