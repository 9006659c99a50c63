// Plan usage (spec section 3): GET /v1/usage, the billing page's figures, the 80 % warning and the
// 100 % e-mail (each once per period), and an upgrade raising the limit at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import type { BillingOverview, EmailUsage } from '../contracts';
import { campaignRecipients, campaigns, emailUsage, tenants } from '../db/schema';
import { startGateway, type TestGateway } from '../../test/helpers';
import { call, tenantId } from '../../test/audience-helpers';
import { CAMPAIGN_SEND_QUEUE } from './sender/queue';
import { checkUsageNotices } from './usage-notices';
import { recordSentSql } from './usage';

let gw: TestGateway;
let basic: string;
let acme: string;
let staff: string;
let basicId: string;
let acmeId: string;

const today = () => new Date().toISOString().slice(0, 10);

async function setUsed(tenant: string, used: number) {
  await gw.handle.db.delete(emailUsage).where(eq(emailUsage.tenantId, tenant));
  await gw.handle.db.execute(recordSentSql(tenant, sql`${used}`, new Date()));
}

async function usage(token: string): Promise<EmailUsage> {
  const r = await call<EmailUsage>(gw, 'GET', '/v1/usage', token);
  assert.equal(r.status, 200, r.text);
  return r.body;
}

async function mailsTo(to: string, subject: RegExp) {
  return (await gw.mails()).filter((m) => m.to.includes(to) && subject.test(m.subject));
}

before(async () => {
  gw = await startGateway({}, { extraJobs: (jobs) => jobs.work(CAMPAIGN_SEND_QUEUE, async () => undefined) });
  [basic, acme, staff] = await Promise.all([gw.login('basicOwner'), gw.login('acmeOwner'), gw.login('acmeStaff')]);
  [basicId, acmeId] = await Promise.all([tenantId(gw, 'Basic Guild'), tenantId(gw, 'Acme DAO')]);
});

after(async () => {
  await gw.close();
});

describe('GET /v1/usage and the billing page', () => {
  it('counts e-mails sent this period against the plan, and what running e-mails reserve', async () => {
    // Basic Guild has no subscription: its plan's smallest monthly volume over the calendar month.
    await setUsed(basicId, 1_234);
    const now = new Date();
    const u = await usage(basic);
    assert.equal(u.limit, 10_000);
    assert.equal(u.sent, 1_234);
    assert.equal(u.reserved, 0);
    assert.equal(u.warning_at, 8_000);
    assert.equal(u.period_start, new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString());
    assert.equal(u.period_end, new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString());
    // A day of a past period does not count.
    await gw.handle.db.insert(emailUsage).values({ tenantId: basicId, day: '2020-01-15', sent: 500 });
    assert.equal((await usage(basic)).sent, 1_234);

    // A paused campaign whose audience was taken: its recipients not yet sent are reserved (read from
    // its counters: 8 recipients; sent, delivered and bounced after sending count in `sent`; 1 failed).
    const [c] = await gw.handle.db
      .insert(campaigns)
      .values({
        tenantId: basicId,
        name: 'Half sent',
        status: 'paused',
        audienceTakenAt: new Date(),
        recipients: 8,
        sent: 3,
        delivered: 1,
        bounced: 1,
        failed: 1,
      })
      .returning();
    assert.ok(c);
    const statuses = ['queued', 'queued', 'deferred', 'sending', 'handing', 'delivered', 'bounced', 'failed'] as const;
    await gw.handle.db
      .insert(campaignRecipients)
      .values(statuses.map((status, i) => ({ campaignId: c.id, tenantId: basicId, address: `r${i}@u.test`, status })));
    assert.equal((await usage(basic)).reserved, 4);
    // Finished campaigns reserve nothing.
    await gw.handle.db.update(campaigns).set({ status: 'cancelled' }).where(eq(campaigns.id, c.id));
    assert.equal((await usage(basic)).reserved, 0);

    const billing = await call<BillingOverview>(gw, 'GET', '/v1/billing', basic);
    assert.equal(billing.status, 200, billing.text);
    assert.equal(billing.body.emailsUsed, 1_234);
    assert.equal(billing.body.emailLimit, 10_000);
  });

  it('reads the subscription period and volume, for any user of the tenant; upgrading raises the limit at once', async () => {
    await setUsed(acmeId, 42_000);
    const u = await usage(staff);
    assert.equal(u.limit, 60_000);
    assert.equal(u.sent, 42_000);
    const billing = await call<BillingOverview>(gw, 'GET', '/v1/billing', acme);
    assert.equal(billing.body.emailsUsed, 42_000);
    assert.equal(billing.body.emailLimit, 60_000);
    assert.equal(u.period_start, billing.body.periodStart);
    assert.equal(u.period_end, billing.body.periodEnd);

    const change = await call(gw, 'POST', '/v1/billing/change/price_startup3_monthly', acme, {});
    assert.equal(change.status, 200, change.text);
    const upgraded = await usage(staff);
    assert.equal(upgraded.limit, 80_000);
    assert.equal(upgraded.sent, 42_000);
    assert.equal((await gw.get('/v1/usage')).status, 401);
  });
});

describe('usage notices', () => {
  it('warns the owner once per period at 80 %, and tells them once at 100 % that sending stopped', async () => {
    const { db } = gw.handle;
    const { mailer } = gw.app.deps;
    await db.update(tenants).set({ lastWarningSentDate: null, lastLimitSentDate: null }).where(eq(tenants.id, basicId));
    const warnings = () => mailsTo('owner@basic.test', /has used \d+ % of its e-mails/);
    const limits = () => mailsTo('owner@basic.test', /used all its e-mails this period: sending stopped/);

    await setUsed(basicId, 7_999);
    await checkUsageNotices(db, mailer, basicId, new Date());
    assert.equal((await warnings()).length, 0, 'below 80 %: nothing');

    await setUsed(basicId, 8_000);
    await checkUsageNotices(db, mailer, basicId, new Date());
    await checkUsageNotices(db, mailer, basicId, new Date());
    const [warning, ...more] = await warnings();
    assert.ok(warning);
    assert.equal(more.length, 0, 'once per period');
    assert.equal(warning.subject, 'Basic Guild has used 80 % of its e-mails this period');
    assert.match(warning.text, /sent 8\.000 of the 10\.000 e-mails/);
    assert.match(warning.text, /upgrade your plan/i);
    const [row] = await db.select().from(tenants).where(eq(tenants.id, basicId));
    assert.equal(row?.lastWarningSentDate, today());
    assert.equal(row?.lastLimitSentDate, null);
    // Staff and other tenants' owners get nothing.
    assert.equal((await mailsTo('owner@acme.test', /e-mails this period/)).length, 0);

    await setUsed(basicId, 10_000);
    await Promise.all([
      checkUsageNotices(db, mailer, basicId, new Date()),
      checkUsageNotices(db, mailer, basicId, new Date()),
    ]);
    await checkUsageNotices(db, mailer, basicId, new Date());
    const limitMails = await limits();
    assert.equal(limitMails.length, 1, 'once per period, even when checked at the same time');
    assert.match(limitMails[0]?.text ?? '', /sent all 10\.000 e-mails .* sending has stopped/);
    assert.match(limitMails[0]?.text ?? '', /Upgrade Your Plan/);
    assert.equal((await warnings()).length, 1);

    // A new period: the dates are from before it, so each notice can be sent again.
    await db
      .update(tenants)
      .set({ lastWarningSentDate: '2020-01-31', lastLimitSentDate: '2020-01-31' })
      .where(eq(tenants.id, basicId));
    await checkUsageNotices(db, mailer, basicId, new Date());
    assert.equal((await limits()).length, 2);
    assert.equal((await warnings()).length, 1, 'past the limit the warning is not sent on its own');
    await setUsed(basicId, 0);
  });
});
