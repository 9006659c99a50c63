import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import {
  type BillingOverview,
  type ChangeResult,
  type ChangeSummary,
  NO_BILLING_TEXT,
  PAYMENT_FAILED_MESSAGE,
  PlanCatalogue,
  PLAN_FEATURES,
  type PortalResponse,
  type SessionUser,
} from '../contracts';
import { CATALOGUE } from './catalogue';
import { INVALID_PORTAL_LINK } from './portal-page';
import { signPortalToken } from './portal-token';
import { ALREADY_ON_PLAN, RETURN_URL_INVALID, UNKNOWN_PRICE } from './providers/provider';
import { subscriptions } from '../db/schema';
import { tenantId } from '../../test/audience-helpers';
import { type ErrorBody, type Reply, startGateway, type TestGateway } from '../../test/helpers';

let gw: TestGateway;
let owner: string;
let staff: string;
let basic: string;
let acmeId: string;

before(async () => {
  gw = await startGateway();
  [owner, staff, basic] = await Promise.all([gw.login('acmeOwner'), gw.login('acmeStaff'), gw.login('basicOwner')]);
  acmeId = await tenantId(gw, 'Acme DAO');
});
after(() => gw.close());

const CONSOLE = 'http://localhost:3000';
const DAY = 24 * 60 * 60 * 1000;

const overview = async (token = owner) => {
  const r = await gw.get<BillingOverview>('/v1/billing', token);
  assert.equal(r.status, 200, r.text);
  return r.body;
};
const summary = (priceId: string, token = owner) =>
  gw.get<ChangeSummary & ErrorBody>(`/v1/billing/change-summary/${priceId}`, token);
const change = (priceId: string, method: 'GET' | 'POST' = 'GET', token = owner, headers: Record<string, string> = {}) =>
  gw.request<ChangeResult & ErrorBody>(`/v1/billing/change/${priceId}`, { method, token, headers });
const portalLink = (returnUrl: string, token = owner) =>
  gw.post<PortalResponse & ErrorBody>('/v1/billing/access-portal', { return_url: returnUrl }, token);
const me = async (token = owner) => {
  const r = await gw.post<{ user: SessionUser }>('/v1/auth/verify', { token });
  assert.equal(r.status, 200, r.text);
  return r.body.user;
};
/** The portal page's path (the link names the configured public address; the test gateway listens elsewhere). */
const pagePath = (url: string) => new URL(url).pathname;
const setCard = (url: string, action: string) =>
  gw.request<string>(pagePath(url), {
    method: 'POST',
    rawBody: `action=${action}`,
    contentType: 'application/x-www-form-urlencoded',
  });
const near = (actual: number, expected: number, tolerance: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not within ${tolerance} of ${expected}`);

describe('GET /v1/plans', () => {
  it('needs a session', async () => {
    assert.equal((await gw.get('/v1/plans')).status, 401);
  });

  it('gives any signed-in user the catalogue of section 9 in the contract shape', async () => {
    const r = await gw.get<PlanCatalogue>('/v1/plans', staff);
    assert.equal(r.status, 200, r.text);
    assert.ok(PlanCatalogue.safeParse(r.body).success);
    const records = r.body.records;
    assert.deepEqual(
      records.map((p) => [p.key, p.name, p.label]),
      CATALOGUE.map((p) => [p.key, p.name, p.label]),
    );
    for (const plan of records) {
      const source = CATALOGUE.find((p) => p.key === plan.key);
      assert.deepEqual(plan.features, source?.cardFeatures);
      assert.deepEqual(plan.grants, PLAN_FEATURES[plan.key]);
      assert.equal(plan.pricing.length, 5);
      assert.deepEqual(
        plan.pricing.map((o) => [o.key, o.emails, o.monthly.price, o.semiAnnual.price, o.yearly.price]),
        source?.options.map((o) => [
          o.key,
          o.emails,
          o.cents.monthly / 100,
          o.cents.semiAnnual / 100,
          o.cents.yearly / 100,
        ]),
      );
    }
    const startup3 = records[1]?.pricing[2];
    assert.deepEqual(startup3?.monthly, { price: 120, id: 'price_startup3_monthly' });
    assert.deepEqual(records[3]?.pricing[4]?.semiAnnual, { price: 5557.5, id: 'price_scaleup5_semiAnnual' });
    assert.equal(records[0]?.pricing[0]?.emails, '10.000');
  });
});

describe('who may use billing', () => {
  it('needs company_settings (Acme staff: 403)', async () => {
    const calls: Reply[] = await Promise.all([
      gw.get('/v1/billing', staff),
      summary('price_growup1_monthly', staff),
      change('price_growup1_monthly', 'GET', staff),
      change('price_growup1_monthly', 'POST', staff),
      gw.request('/v1/billing/scheduled-change', { method: 'DELETE', token: staff }),
      portalLink(`${CONSOLE}/account/billing`, staff),
    ]);
    assert.deepEqual(
      calls.map((c) => c.status),
      [403, 403, 403, 403, 403, 403],
    );
    assert.equal((await gw.get('/v1/billing')).status, 401);
  });

  it("a tenant without automated billing gets the spec's no-billing text (Basic Guild)", async () => {
    const calls: Reply<ErrorBody>[] = await Promise.all([
      summary('price_growup1_monthly', basic),
      change('price_growup1_monthly', 'GET', basic),
      gw.request<ErrorBody>('/v1/billing/scheduled-change', { method: 'DELETE', token: basic }),
      portalLink(`${CONSOLE}/account/billing`, basic),
    ]);
    for (const c of calls) {
      assert.equal(c.status, 400, c.text);
      assert.equal(c.body.message, NO_BILLING_TEXT);
    }
    const o = await overview(basic);
    assert.equal(o.billing, false);
    assert.deepEqual(o.plan, { key: 'basic', name: 'BASIC', label: 'Kickstart your project' });
    assert.equal(o.priceId, null);
    assert.equal(o.nextInvoice, null);
    assert.deepEqual(o.invoices, []);
  });

  it('400 for unknown prices and for the current price', async () => {
    for (const id of ['price_nope_monthly', 'price_startup1_weekly']) {
      const s = await summary(id);
      assert.equal(s.status, 400);
      assert.equal(s.body.message, UNKNOWN_PRICE);
      const c = await change(id, 'POST');
      assert.equal(c.status, 400);
      assert.equal(c.body.message, UNKNOWN_PRICE);
    }
    const same = await summary('price_startup1_monthly');
    assert.equal(same.status, 400);
    assert.equal(same.body.message, ALREADY_ON_PLAN);
  });
});

describe('the billing page (Acme DAO: START UP monthly, 21 % tax)', () => {
  it('shows the seeded subscription, its period, the next invoice and the paid invoice', async () => {
    const o = await overview();
    assert.equal(o.billing, true);
    assert.deepEqual(o.plan, { key: 'startup', name: 'START UP', label: 'For expanding projects' });
    assert.equal(o.priceId, 'price_startup1_monthly');
    assert.equal(o.period, 'monthly');
    assert.equal(o.emailVolume, '60.000');
    assert.equal(o.emailLimit, 60_000);
    assert.equal(o.emailsUsed, 0);
    assert.equal(o.taxRate, 21);
    assert.deepEqual(o.paymentMethod, { label: 'Visa •••• 4242', failing: false });
    const start = Date.parse(o.periodStart ?? '');
    near(start, Date.now() - 10 * DAY, 5 * 60_000, 'period start');
    const end = new Date(start);
    end.setUTCMonth(end.getUTCMonth() + 1);
    assert.equal(o.periodEnd, end.toISOString());
    assert.deepEqual(o.nextInvoice, { date: o.periodEnd, amount: 121 });
    assert.equal(o.scheduledChange, null);
    assert.equal(o.invoices.length, 1);
    assert.equal(o.invoices[0]?.status, 'paid');
    assert.equal(o.invoices[0]?.total, 121);
    assert.equal(o.invoices[0]?.tax, 21);
  });
});

describe('a downgrade is scheduled for the period end', () => {
  it('summary: BASIC from the period end on, nothing due now', async () => {
    const o = await overview();
    const s = await summary('price_basic1_monthly');
    assert.equal(s.status, 200, s.text);
    assert.deepEqual(s.body, {
      movement: 'downgrade',
      newPlan: 'BASIC',
      currentPlan: 'START UP',
      subtotal: 50,
      taxRate: 21,
      tax: 10.5,
      total: 60.5,
      dueNow: 0,
      effectiveDate: o.periodEnd,
    });
  });

  it('change: scheduled (twice: one schedule), plan unchanged, no invoice; cancel works', async () => {
    const before = await overview();
    const first = await change('price_basic1_monthly');
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body, {
      status: 'scheduled',
      plan: { key: 'basic', name: 'BASIC' },
      priceId: 'price_basic1_monthly',
      effectiveDate: before.periodEnd,
      invoiceId: null,
    });
    const again = await change('price_basic1_monthly', 'POST');
    assert.deepEqual(again.body, first.body);

    const o = await overview();
    assert.equal(o.plan.key, 'startup');
    assert.equal(o.priceId, 'price_startup1_monthly');
    assert.deepEqual(o.scheduledChange, {
      priceId: 'price_basic1_monthly',
      plan: 'BASIC',
      period: 'monthly',
      effectiveDate: before.periodEnd,
    });
    assert.deepEqual(o.nextInvoice, { date: before.periodEnd, amount: 60.5 });
    assert.equal(o.invoices.length, before.invoices.length);
    assert.ok((await me()).features.includes('automations'), 'START UP features stay until the period end');

    const cancel = await gw.request<{ message: string }>('/v1/billing/scheduled-change', {
      method: 'DELETE',
      token: owner,
    });
    assert.equal(cancel.status, 200, cancel.text);
    assert.equal(cancel.body.message, 'The scheduled plan change was cancelled.');
    const after = await overview();
    assert.equal(after.scheduledChange, null);
    assert.deepEqual(after.nextInvoice, { date: before.periodEnd, amount: 121 });
    const none = await gw.request<{ message: string }>('/v1/billing/scheduled-change', {
      method: 'DELETE',
      token: owner,
    });
    assert.equal(none.body.message, 'No plan change was scheduled.');
  });
});

describe('the billing portal link', () => {
  it('refuses return addresses outside the console (no open redirect)', async () => {
    for (const bad of [
      'https://evil.example/account/billing',
      'javascript:alert(1)',
      '//evil.example/x',
      '/account/billing',
      `${CONSOLE}@evil.example/`,
      'http://localhost:3001/account/billing',
      'data:text/html,hi',
    ]) {
      const r = await portalLink(bad);
      assert.equal(r.status, 400, `${bad}: ${r.text}`);
      assert.deepEqual(r.body.errors, { return_url: [RETURN_URL_INVALID] }, bad);
    }
  });

  it('gives a signed link to the local portal page, which escapes and runs no script', async () => {
    const r = await portalLink(`${CONSOLE}/account/billing?tab="x"&a=<b>`);
    assert.equal(r.status, 200, r.text);
    assert.ok(r.body.url.startsWith(`${gw.config.onboarding.publicUrl}/billing/portal/`), r.body.url);
    const page = await gw.request<string>(pagePath(r.body.url));
    assert.equal(page.status, 200, page.text);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /form-action 'self'/);
    assert.doesNotMatch(csp, /script-src/);
    assert.doesNotMatch(page.text, /<script/i);
    assert.match(page.text, /Acme DAO/);
    assert.match(page.text, /Visa •••• 4242/);
    assert.match(page.text, /Use a working card/);
    assert.match(page.text, /Make payments fail/);
    // The return link, escaped (the URL parser already encoded the quotes and brackets).
    assert.ok(
      page.text.includes(`<a href="${CONSOLE}/account/billing?tab=%22x%22&#38;a=%3Cb%3E">Return to the console</a>`),
      page.text,
    );
  });

  it('answers 400 for a forged, changed or expired portal link', async () => {
    const r = await portalLink(`${CONSOLE}/account/billing`);
    const token = pagePath(r.body.url).split('/').pop() ?? '';
    const [payload, signature] = token.split('.');
    const forged = signPortalToken(new TextEncoder().encode('x'.repeat(40)), {
      tenantId: acmeId,
      returnUrl: CONSOLE,
    });
    const expired = signPortalToken(gw.config.jwtSecret, { tenantId: acmeId, returnUrl: CONSOLE }, Date.now() - DAY);
    const otherPayload = Buffer.from(JSON.stringify({ t: acmeId, r: 'https://evil.example', e: Date.now() + DAY }));
    for (const bad of [forged, expired, `${otherPayload.toString('base64url')}.${signature}`, `${payload}.`, 'x']) {
      const page = await gw.request<string>(`/billing/portal/${bad}`);
      assert.equal(page.status, 400, bad);
      assert.ok(page.text.includes('This billing portal link is invalid or has expired.'), INVALID_PORTAL_LINK);
      const post = await setCard(`http://x/billing/portal/${bad}`, 'failing');
      assert.equal(post.status, 400, bad);
    }
    assert.deepEqual((await overview()).paymentMethod, { label: 'Visa •••• 4242', failing: false });
  });
});

describe('an upgrade: START UP → GROW UP', () => {
  let portal = '';

  it('summary: the prorated difference for the rest of the period, with tax, due now', async () => {
    const o = await overview();
    const start = Date.parse(o.periodStart ?? '');
    const end = Date.parse(o.periodEnd ?? '');
    const share = (end - Date.now()) / (end - start);
    const s = await summary('price_growup1_monthly');
    assert.equal(s.status, 200, s.text);
    assert.equal(s.body.movement, 'upgrade');
    assert.equal(s.body.newPlan, 'GROW UP');
    assert.equal(s.body.currentPlan, 'START UP');
    assert.equal(s.body.taxRate, 21);
    near(s.body.subtotal, (242.5 - 100) * share, 0.02, 'subtotal');
    near(s.body.tax, Math.round(s.body.subtotal * 21) / 100, 0.011, 'tax');
    assert.equal(s.body.total, Math.round((s.body.subtotal + s.body.tax) * 100) / 100);
    assert.equal(s.body.dueNow, s.body.total);
    assert.equal(s.body.effectiveDate, null);
  });

  it('a declined payment: 402 with the spec message, a failed invoice, nothing else changes', async () => {
    const link = await portalLink(`${CONSOLE}/account/billing`);
    portal = link.body.url;
    const set = await setCard(portal, 'failing');
    assert.equal(set.status, 200, set.text); // 303 to the page, followed
    assert.match(set.text, /Payment method updated\./);
    assert.match(set.text, /Visa •••• 0341 \(declines\)/);

    const before = await overview();
    const r = await change('price_growup1_monthly', 'POST');
    assert.equal(r.status, 402, r.text);
    assert.deepEqual(r.body, { message: PAYMENT_FAILED_MESSAGE });
    const o = await overview();
    assert.equal(o.plan.key, 'startup');
    assert.equal(o.priceId, 'price_startup1_monthly');
    assert.equal(o.periodEnd, before.periodEnd);
    assert.deepEqual(o.paymentMethod, { label: 'Visa •••• 0341 (declines)', failing: true });
    assert.equal(o.invoices.length, before.invoices.length + 1);
    assert.equal(o.invoices[0]?.status, 'failed');
    const user = await me();
    assert.ok(!user.permissions.includes('manage_domains'));
  });

  it('after fixing the card in the portal the retry upgrades now: plan, invoice and permissions', async () => {
    const set = await setCard(portal, 'working');
    assert.equal(set.status, 200, set.text);
    const before = await overview();
    assert.ok(!(await me()).permissions.includes('manage_domains'));

    const r = await change('price_growup1_monthly');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.status, 'changed');
    assert.deepEqual(r.body.plan, { key: 'growup', name: 'GROW UP' });
    assert.equal(r.body.priceId, 'price_growup1_monthly');
    assert.equal(r.body.effectiveDate, null);
    assert.ok(r.body.invoiceId);

    const o = await overview();
    assert.deepEqual(o.plan, { key: 'growup', name: 'GROW UP', label: 'Grow with confidence' });
    assert.equal(o.priceId, 'price_growup1_monthly');
    assert.equal(o.periodStart, before.periodStart, 'same period length: the period stays');
    assert.equal(o.periodEnd, before.periodEnd);
    assert.equal(o.invoices[0]?._id, r.body.invoiceId);
    assert.equal(o.invoices[0]?.status, 'paid');
    assert.ok((o.invoices[0]?.total ?? 0) > 0);
    assert.deepEqual(o.nextInvoice, { date: o.periodEnd, amount: 293.43 }); // 242.50 + 21 %

    // The same session's next request has GROW UP's features and the permissions they unlock.
    const user = await me();
    assert.ok(user.features.includes('custom_domains'));
    assert.ok(user.permissions.includes('manage_domains'));
    assert.ok(user.permissions.includes('team_features'));
  });
});

describe('idempotency', () => {
  it('five concurrent identical changes: one plan change, one charge, one answer', async () => {
    const before = await overview();
    const replies = await Promise.all([
      change('price_growup3_monthly', 'POST'),
      change('price_growup3_monthly', 'GET'),
      change('price_growup3_monthly', 'POST'),
      change('price_growup3_monthly', 'GET'),
      change('price_growup3_monthly', 'POST'),
    ]);
    for (const r of replies) assert.equal(r.status, 200, r.text);
    const first = replies[0]?.body;
    assert.ok(first?.invoiceId);
    for (const r of replies) assert.deepEqual(r.body, first);
    const o = await overview();
    assert.equal(o.priceId, 'price_growup3_monthly');
    assert.equal(o.invoices.length, before.invoices.length + 1);
    assert.equal(o.invoices.filter((i) => i._id === first?.invoiceId).length, 1);
  });

  it('an Idempotency-Key answers the first result even after the plan moved on', async () => {
    const key = { 'Idempotency-Key': 'upgrade-growup4-once' };
    const first = await change('price_growup4_monthly', 'POST', owner, key);
    assert.equal(first.status, 200, first.text);
    const next = await change('price_growup5_monthly', 'POST');
    assert.equal(next.status, 200, next.text);
    const before = await overview();
    // Without the key this would now be a downgrade to schedule; with it, the first answer again.
    const retried = await change('price_growup4_monthly', 'POST', owner, key);
    assert.deepEqual(retried.body, first.body);
    const o = await overview();
    assert.equal(o.priceId, 'price_growup5_monthly');
    assert.equal(o.scheduledChange, null);
    assert.equal(o.invoices.length, before.invoices.length);
    const tooLong = await change('price_growup4_monthly', 'POST', owner, { 'Idempotency-Key': 'k'.repeat(256) });
    assert.equal(tooLong.status, 400);
  });
});

describe('a scheduled downgrade takes effect when the period ends', () => {
  it('applies plan, price and a renewal invoice once, at the first read after the period end', async () => {
    const scheduled = await change('price_startup2_monthly');
    assert.equal(scheduled.body.status, 'scheduled');
    assert.ok((await me()).permissions.includes('manage_domains'));

    // The period ended a minute ago.
    const ended = new Date(Date.now() - 60_000);
    await gw.handle.db
      .update(subscriptions)
      .set({ periodStart: new Date(ended.getTime() - 30 * DAY), periodEnd: ended })
      .where(eq(subscriptions.tenantId, acmeId));

    const before = (await gw.handle.db.select().from(subscriptions).where(eq(subscriptions.tenantId, acmeId)))[0];
    assert.equal(before?.scheduledPriceId, 'price_startup2_monthly');
    const o = await overview();
    assert.deepEqual(o.plan, { key: 'startup', name: 'START UP', label: 'For expanding projects' });
    assert.equal(o.priceId, 'price_startup2_monthly');
    assert.equal(o.periodStart, ended.toISOString());
    assert.equal(o.scheduledChange, null);
    // The renewal is dated at the start of its period (a minute ago, before the upgrades of this test run).
    const renewals = o.invoices.filter((i) => i.description === 'START UP (70.000 e-mails), Monthly');
    assert.equal(renewals.length, 1);
    assert.equal(renewals[0]?.status, 'paid');
    assert.equal(renewals[0]?.created_at, ended.toISOString());
    assert.equal(renewals[0]?.total, 136.13); // 112.50 + 23.625 tax (rounded up)
    const again = await overview();
    assert.equal(again.invoices.length, o.invoices.length);
    assert.deepEqual(again.nextInvoice, { date: again.periodEnd, amount: 136.13 });

    const user = await me();
    assert.ok(!user.permissions.includes('manage_domains'));
    assert.ok(!user.features.includes('custom_domains'));
  });
});
