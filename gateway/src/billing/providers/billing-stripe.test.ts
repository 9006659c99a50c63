// The Stripe billing provider (spec sections 3, 4 and 9) through the official SDK against a fake Stripe API: a node:http
// server on 127.0.0.1 that records every request and answers the endpoints the provider uses with
// Stripe-shaped JSON. The gateway reaches it through STRIPE_API_HOST / _PORT / _PROTOCOL.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import {
  type BillingOverview,
  type BillingPeriod,
  type ChangeResult,
  type ChangeSummary,
  NO_BILLING_TEXT,
  PAYMENT_FAILED_MESSAGE,
  type PortalResponse,
  type SessionUser,
} from '../../contracts';
import { CATALOGUE, priceIdOf } from '../catalogue';
import { stripeIdempotencyKey } from './stripe-provider';
import { plans, tenants } from '../../db/schema';
import { INVALID_SIGNATURE } from '../webhook-routes';
import { tenantId } from '../../../test/audience-helpers';
import { type ErrorBody, startGateway, type TestGateway } from '../../../test/helpers';

// ---------------------------------------------------------------------------------------------------
// The fake Stripe API
// ---------------------------------------------------------------------------------------------------

interface Recorded {
  method: string;
  path: string;
  query: Record<string, string>;
  form: Record<string, string>;
  headers: http.IncomingHttpHeaders;
}

const DAY_S = 24 * 60 * 60;
const NOW_S = Math.floor(Date.now() / 1000);
const PERIOD_START = NOW_S - 10 * DAY_S;
const PERIOD_END = NOW_S + 20 * DAY_S;
const CUSTOMER = 'cus_acme_demo';
const PORTAL_URL = 'https://billing.stripe.test/p/session/test_YWNtZQ';
const WEBHOOK_SECRET = 'whsec_test';
const iso = (s: number) => new Date(s * 1000).toISOString();

const TAX_RATES: Record<string, { percentage: number; display_name: string }> = {
  txr_vat21: { percentage: 21, display_name: 'VAT' },
  txr_ny: { percentage: 8.875, display_name: 'Sales tax' },
};

interface FakePhase {
  price: string;
  start: number;
  end: number;
}

/** What the fake account holds; tests steer it. */
const state = {
  price: 'price_startup1_monthly',
  active: true,
  latestInvoice: 'in_first',
  schedule: null as { id: string; phases: FakePhase[]; status: string } | null,
  schedules: 0,
  /** The next subscription update is declined (402 card_error). */
  decline: false,
  /** The tax rate the previews' taxes name. */
  previewTaxRate: 'txr_vat21',
};
const requests: Recorded[] = [];

function taxRate(id: string) {
  const rate = TAX_RATES[id];
  if (!rate) return null;
  return {
    id,
    object: 'tax_rate',
    active: true,
    country: 'NL',
    created: PERIOD_START,
    description: null,
    display_name: rate.display_name,
    effective_percentage: rate.percentage,
    flat_amount: null,
    inclusive: false,
    jurisdiction: null,
    jurisdiction_level: null,
    livemode: false,
    metadata: {},
    percentage: rate.percentage,
    rate_type: 'percentage',
    state: null,
    tax_type: 'vat',
  };
}

const PERIOD_OF: Record<string, BillingPeriod> = {
  monthly: 'monthly',
  semiAnnual: 'semiAnnual',
  yearly: 'yearly',
};

function price(id: string) {
  const [, optionKey = '', periodKey = ''] = id.split('_');
  const period = PERIOD_OF[periodKey] ?? 'monthly';
  const option = CATALOGUE.flatMap((p) => p.options).find((o) => o.key === optionKey);
  return {
    id,
    object: 'price',
    active: true,
    billing_scheme: 'per_unit',
    created: PERIOD_START,
    currency: 'usd',
    livemode: false,
    lookup_key: null,
    metadata: {},
    nickname: null,
    product: `prod_${optionKey}`,
    recurring: {
      interval: period === 'yearly' ? 'year' : 'month',
      interval_count: period === 'semiAnnual' ? 6 : 1,
      meter: null,
      trial_period_days: null,
      usage_type: 'licensed',
    },
    tax_behavior: 'exclusive',
    type: 'recurring',
    unit_amount: option?.cents[period] ?? null,
    unit_amount_decimal: option ? String(option.cents[period]) : null,
  };
}

function schedule() {
  const s = state.schedule;
  if (!s) return null;
  const current = s.phases.find((p) => p.start <= NOW_S && NOW_S < p.end) ?? null;
  return {
    id: s.id,
    object: 'subscription_schedule',
    customer: CUSTOMER,
    subscription: 'sub_acme',
    status: s.status,
    end_behavior: 'release',
    current_phase: current ? { start_date: current.start, end_date: current.end } : null,
    phases: s.phases.map((p) => ({
      start_date: p.start,
      end_date: p.end,
      items: [{ price: p.price, quantity: 1, metadata: {}, discounts: [], billing_thresholds: null, plan: p.price }],
      proration_behavior: 'create_prorations',
      add_invoice_items: [],
      currency: 'usd',
      metadata: {},
    })),
    released_at: null,
    released_subscription: null,
  };
}

function subscription(expand: string[]) {
  const s = schedule();
  return {
    id: 'sub_acme',
    object: 'subscription',
    customer: CUSTOMER,
    status: state.active ? 'active' : 'canceled',
    currency: 'usd',
    collection_method: 'charge_automatically',
    created: PERIOD_START,
    start_date: PERIOD_START,
    billing_cycle_anchor: PERIOD_START,
    cancel_at_period_end: false,
    default_tax_rates: [taxRate('txr_vat21')],
    default_payment_method: expand.includes('data.default_payment_method')
      ? {
          id: 'pm_card_visa',
          object: 'payment_method',
          type: 'card',
          card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030, funding: 'credit' },
        }
      : 'pm_card_visa',
    latest_invoice: state.latestInvoice,
    schedule: s ? (expand.includes('data.schedule') ? s : s.id) : null,
    items: {
      object: 'list',
      data: [
        {
          id: 'si_acme',
          object: 'subscription_item',
          created: PERIOD_START,
          current_period_start: PERIOD_START,
          current_period_end: PERIOD_END,
          price: price(state.price),
          quantity: 1,
          subscription: 'sub_acme',
          tax_rates: [],
          metadata: {},
          discounts: [],
        },
      ],
      has_more: false,
      url: '/v1/subscription_items?subscription=sub_acme',
    },
    livemode: false,
    metadata: {},
  };
}

function invoice(
  id: string,
  cents: { subtotal: number; tax: number; amountDue?: number },
  extra: Record<string, unknown> = {},
) {
  const total = cents.subtotal + cents.tax;
  return {
    id,
    object: 'invoice',
    customer: CUSTOMER,
    currency: 'usd',
    created: PERIOD_START,
    description: null,
    number: id.toUpperCase(),
    status: 'paid',
    attempted: true,
    subtotal: cents.subtotal,
    subtotal_excluding_tax: cents.subtotal,
    total,
    total_excluding_tax: cents.subtotal,
    amount_due: cents.amountDue ?? total,
    amount_paid: 0,
    amount_remaining: cents.amountDue ?? total,
    period_start: PERIOD_START,
    period_end: PERIOD_END,
    total_taxes: [
      {
        amount: cents.tax,
        tax_behavior: 'exclusive',
        tax_rate_details: { tax_rate: state.previewTaxRate },
        taxability_reason: 'standard_rated',
        taxable_amount: cents.subtotal,
        type: 'tax_rate_details',
      },
    ],
    lines: { object: 'list', data: [], has_more: false, url: `/v1/invoices/${id}/lines` },
    livemode: false,
    ...extra,
  };
}

const list = (url: string, data: unknown[]) => ({ object: 'list', data, has_more: false, url });
const notFoundBody = (message: string) => ({ error: { type: 'invalid_request_error', message } });
const expandOf = (query: Record<string, string>) =>
  Object.entries(query)
    .filter(([k]) => k.startsWith('expand'))
    .map(([, v]) => v);

/** One answer per endpoint the provider uses: [status, body]. */
function answer(r: Recorded): [number, unknown] {
  const { method, path, form, query } = r;
  if (method === 'GET' && path === '/v1/subscriptions') {
    return [200, list('/v1/subscriptions', state.active ? [subscription(expandOf(query))] : [])];
  }
  if (method === 'POST' && path === '/v1/invoices/create_preview') {
    // The upgrade's proration invoice (subscription_details) or the next regular invoice.
    if (form['subscription_details[items][0][price]']) {
      return [200, invoice('upcoming_in_proration', { subtotal: 9533, tax: 2002 })];
    }
    return [200, invoice('upcoming_in_next', { subtotal: 10000, tax: 2100 })];
  }
  if (method === 'POST' && path === '/v1/subscriptions/sub_acme') {
    if (state.decline) {
      state.decline = false;
      return [
        402,
        {
          error: {
            type: 'card_error',
            code: 'card_declined',
            decline_code: 'insufficient_funds',
            message: 'Your card has insufficient funds.',
            param: '',
          },
        },
      ];
    }
    state.price = form['items[0][price]'] ?? state.price;
    state.latestInvoice = 'in_upgrade';
    return [200, subscription([])];
  }
  if (method === 'POST' && path === '/v1/subscription_schedules') {
    state.schedules += 1;
    state.schedule = {
      id: `sub_sched_${state.schedules}`,
      status: 'active',
      phases: [{ price: state.price, start: PERIOD_START, end: PERIOD_END }],
    };
    return [200, schedule()];
  }
  const scheduleMatch = /^\/v1\/subscription_schedules\/([^/]+)(\/release)?$/.exec(path);
  if (scheduleMatch) {
    const s = state.schedule;
    if (!s || s.id !== scheduleMatch[1]) return [404, notFoundBody('No such subscription schedule')];
    if (method === 'GET') return [200, schedule()];
    if (scheduleMatch[2]) {
      const released = { ...schedule(), status: 'released', released_subscription: 'sub_acme' };
      state.schedule = null;
      return [200, released];
    }
    const phases: FakePhase[] = [];
    for (let i = 0; form[`phases[${i}][items][0][price]`]; i++) {
      const start = Number(form[`phases[${i}][start_date]`] ?? phases[i - 1]?.end);
      const months =
        form[`phases[${i}][duration][interval]`] === 'year'
          ? 12
          : Number(form[`phases[${i}][duration][interval_count]`] ?? 1);
      const end = Number(form[`phases[${i}][end_date]`] ?? start + months * 30 * DAY_S);
      phases.push({ price: form[`phases[${i}][items][0][price]`] ?? '', start, end });
    }
    s.phases = phases;
    return [200, schedule()];
  }
  if (method === 'POST' && path === '/v1/billing_portal/sessions') {
    return [
      200,
      {
        id: 'bps_test',
        object: 'billing_portal.session',
        customer: form.customer,
        return_url: form.return_url,
        url: PORTAL_URL,
        livemode: false,
      },
    ];
  }
  if (method === 'GET' && path === '/v1/invoices') {
    return [
      200,
      list('/v1/invoices', [
        invoice('in_draft', { subtotal: 500, tax: 105 }, { status: 'draft', attempted: false }),
        invoice('in_failed', { subtotal: 1250, tax: 263 }, { status: 'open', description: 'Upgrade to GROW UP' }),
        invoice('in_first', { subtotal: 10000, tax: 2100 }, { description: 'START UP (60.000 e-mails), Monthly' }),
      ]),
    ];
  }
  const rateMatch = /^\/v1\/tax_rates\/([^/]+)$/.exec(path);
  if (method === 'GET' && rateMatch) {
    const rate = taxRate(rateMatch[1] ?? '');
    return rate ? [200, rate] : [404, notFoundBody('No such tax rate')];
  }
  return [404, notFoundBody(`Unrecognized request URL (${method}: ${path})`)];
}

const fake = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const recorded: Recorded = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      form: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))),
      headers: req.headers,
    };
    requests.push(recorded);
    const [status, body] = answer(recorded);
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${requests.length}` });
    res.end(JSON.stringify(body));
  });
});

// ---------------------------------------------------------------------------------------------------
// The gateway on the fake
// ---------------------------------------------------------------------------------------------------

let gw: TestGateway;
let owner: string;
let basic: string;
let acmeId: string;
const signer = new Stripe('sk_test_x');

before(async () => {
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  const port = (fake.address() as AddressInfo).port;
  gw = await startGateway({
    STRIPE_SECRET_KEY: 'sk_test_x',
    STRIPE_API_HOST: '127.0.0.1',
    STRIPE_API_PORT: String(port),
    STRIPE_API_PROTOCOL: 'http',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  });
  [owner, basic] = await Promise.all([gw.login('acmeOwner'), gw.login('basicOwner')]);
  acmeId = await tenantId(gw, 'Acme DAO');
});
after(async () => {
  await gw.close();
  await new Promise((resolve) => fake.close(resolve));
});

const CONSOLE = 'http://localhost:3000';

/** The requests recorded while `fn` runs. */
async function recording<T>(fn: () => Promise<T>): Promise<{ result: T; calls: Recorded[] }> {
  const from = requests.length;
  const result = await fn();
  return { result, calls: requests.slice(from) };
}
const only = (calls: Recorded[], method: string, path: string) => {
  const found = calls.filter((c) => c.method === method && c.path === path);
  assert.equal(found.length, 1, `one ${method} ${path} in ${calls.map((c) => `${c.method} ${c.path}`).join(', ')}`);
  return found[0] as Recorded;
};
const summary = (priceId: string, token = owner) =>
  gw.get<ChangeSummary & ErrorBody>(`/v1/billing/change-summary/${priceId}`, token);
const change = (priceId: string, headers: Record<string, string> = {}) =>
  gw.request<ChangeResult & ErrorBody>(`/v1/billing/change/${priceId}`, { method: 'POST', token: owner, headers });
const overview = async () => {
  const r = await gw.get<BillingOverview>('/v1/billing', owner);
  assert.equal(r.status, 200, r.text);
  return r.body;
};
const me = async () => {
  const r = await gw.post<{ user: SessionUser }>('/v1/auth/verify', { token: owner });
  assert.equal(r.status, 200, r.text);
  return r.body.user;
};
const acmePlan = async () => {
  const [row] = await gw.handle.db
    .select({ key: plans.key })
    .from(tenants)
    .innerJoin(plans, eq(plans.id, tenants.planId))
    .where(eq(tenants.id, acmeId));
  return row?.key;
};
const webhook = (payload: string, signature: string | null) =>
  gw.request<{ received: boolean } & ErrorBody>('/v1/billing/webhook', {
    method: 'POST',
    rawBody: payload,
    contentType: 'application/json; charset=utf-8',
    headers: signature === null ? {} : { 'stripe-signature': signature },
  });
const subscriptionEvent = (type: string) =>
  JSON.stringify(
    {
      id: `evt_${type}`,
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: NOW_S,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object: subscription([]) },
    },
    null,
    2,
  );

// ---------------------------------------------------------------------------------------------------

describe('Stripe provider: reading', () => {
  it('the billing page maps the subscription, the upcoming invoice and the invoices (cents → dollars)', async () => {
    const { result: o, calls } = await recording(overview);
    const list = only(calls, 'GET', '/v1/subscriptions');
    assert.equal(list.query.customer, CUSTOMER);
    assert.equal(list.query.status, 'active');
    assert.equal(list.query.limit, '1');
    assert.equal(list.headers.authorization, 'Bearer sk_test_x');
    assert.equal(list.headers['stripe-version'], Stripe.API_VERSION);
    assert.equal(only(calls, 'POST', '/v1/invoices/create_preview').form.subscription, 'sub_acme');
    assert.equal(only(calls, 'GET', '/v1/invoices').query.customer, CUSTOMER);

    assert.equal(o.billing, true);
    assert.deepEqual(o.plan, { key: 'startup', name: 'START UP', label: 'For expanding projects' });
    assert.equal(o.priceId, 'price_startup1_monthly');
    assert.equal(o.period, 'monthly');
    assert.equal(o.emailVolume, '60.000');
    assert.equal(o.emailLimit, 60_000);
    assert.equal(o.periodStart, iso(PERIOD_START));
    assert.equal(o.periodEnd, iso(PERIOD_END));
    assert.deepEqual(o.nextInvoice, { date: iso(PERIOD_END), amount: 121 });
    assert.equal(o.scheduledChange, null);
    assert.equal(o.taxRate, 21);
    assert.deepEqual(o.paymentMethod, { label: 'Visa •••• 4242', failing: false });
    // The draft is no bill; the open, attempted one is a failed payment.
    assert.deepEqual(o.invoices, [
      {
        _id: 'in_failed',
        created_at: iso(PERIOD_START),
        description: 'Upgrade to GROW UP',
        subtotal: 12.5,
        tax: 2.63,
        total: 15.13,
        status: 'failed',
      },
      {
        _id: 'in_first',
        created_at: iso(PERIOD_START),
        description: 'START UP (60.000 e-mails), Monthly',
        subtotal: 100,
        tax: 21,
        total: 121,
        status: 'paid',
      },
    ]);
  });

  it("a tenant without a Stripe customer gets the no-billing text and Stripe isn't asked", async () => {
    const { result, calls } = await recording(() => summary('price_growup1_monthly', basic));
    assert.equal(result.status, 400);
    assert.equal(result.body.message, NO_BILLING_TEXT);
    assert.deepEqual(calls, []);
  });

  it('the local portal page does not exist with Stripe', async () => {
    assert.equal((await gw.get('/billing/portal/anything')).status, 404);
  });
});

describe('Stripe provider: upgrade', () => {
  it('the summary is the proration preview: cents → dollars, the tax rate percentage', async () => {
    const { result: s, calls } = await recording(() => summary('price_growup1_monthly'));
    assert.equal(s.status, 200, s.text);
    assert.deepEqual(s.body, {
      movement: 'upgrade',
      newPlan: 'GROW UP',
      currentPlan: 'START UP',
      subtotal: 95.33,
      taxRate: 21,
      tax: 20.02,
      total: 115.35,
      dueNow: 115.35,
      effectiveDate: null,
    });
    const preview = only(calls, 'POST', '/v1/invoices/create_preview');
    assert.equal(preview.form.customer, CUSTOMER);
    assert.equal(preview.form.subscription, 'sub_acme');
    assert.equal(preview.form['subscription_details[items][0][id]'], 'si_acme');
    assert.equal(preview.form['subscription_details[items][0][price]'], 'price_growup1_monthly');
    assert.equal(preview.form['subscription_details[proration_behavior]'], 'always_invoice');
    const prorationDate = Number(preview.form['subscription_details[proration_date]']);
    assert.ok(Math.abs(prorationDate - Date.now() / 1000) < 120, `proration_date ${prorationDate} is now`);
  });

  it("a tax rate the subscription doesn't carry is retrieved for its percentage", async () => {
    state.previewTaxRate = 'txr_ny';
    try {
      const { result: s, calls } = await recording(() => summary('price_growup1_monthly'));
      assert.equal(s.status, 200, s.text);
      assert.equal(s.body.taxRate, 8.875);
      only(calls, 'GET', '/v1/tax_rates/txr_ny');
    } finally {
      state.previewTaxRate = 'txr_vat21';
    }
  });

  it('a declined card answers 402 with the payment failure message; the plan stays', async () => {
    state.decline = true;
    const { result: r, calls } = await recording(() => change('price_growup1_monthly'));
    assert.equal(r.status, 402, r.text);
    assert.equal(r.body.message, PAYMENT_FAILED_MESSAGE);
    only(calls, 'POST', '/v1/subscriptions/sub_acme');
    assert.equal(state.price, 'price_startup1_monthly');
    assert.equal(await acmePlan(), 'startup');
    assert.ok(!(await me()).permissions.includes('manage_domains'));
  });

  it('the change updates the subscription item (always_invoice, error_if_incomplete, Idempotency-Key); the plan follows at once', async () => {
    const headers = { 'Idempotency-Key': 'upgrade-click-1' };
    const { result: r, calls } = await recording(() => change('price_growup1_monthly', headers));
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, {
      status: 'changed',
      plan: { key: 'growup', name: 'GROW UP' },
      priceId: 'price_growup1_monthly',
      effectiveDate: null,
      invoiceId: 'in_upgrade',
    });
    const update = only(calls, 'POST', '/v1/subscriptions/sub_acme');
    assert.equal(update.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.deepEqual(update.form, {
      'items[0][id]': 'si_acme',
      'items[0][price]': 'price_growup1_monthly',
      proration_behavior: 'always_invoice',
      payment_behavior: 'error_if_incomplete',
    });
    assert.equal(update.headers['idempotency-key'], stripeIdempotencyKey(acmeId, 'upgrade-click-1'));
    assert.match(String(update.headers['idempotency-key']), /^plan-change-[0-9a-f]{64}$/);

    assert.equal(await acmePlan(), 'growup');
    const user = await me();
    assert.ok(user.features.includes('custom_domains'));
    assert.ok(user.permissions.includes('manage_domains'));
  });

  it('repeating it answers the same result without another update', async () => {
    const { result: r, calls } = await recording(() =>
      change('price_growup1_monthly', { 'Idempotency-Key': 'upgrade-click-1' }),
    );
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.status, 'changed');
    assert.equal(r.body.invoiceId, 'in_upgrade');
    assert.deepEqual(
      calls.filter((c) => c.method === 'POST'),
      [],
    );
  });
});

describe('Stripe provider: downgrade', () => {
  it('the summary: the new price with tax from the period end, nothing due now, no preview', async () => {
    const { result: s, calls } = await recording(() => summary('price_startup1_monthly'));
    assert.equal(s.status, 200, s.text);
    assert.deepEqual(s.body, {
      movement: 'downgrade',
      newPlan: 'START UP',
      currentPlan: 'GROW UP',
      subtotal: 100,
      taxRate: 21,
      tax: 21,
      total: 121,
      dueNow: 0,
      effectiveDate: iso(PERIOD_END),
    });
    assert.equal(calls.filter((c) => c.path === '/v1/invoices/create_preview').length, 0);
  });

  it('the change creates a schedule from the subscription with two phases; the plan stays until then', async () => {
    const { result: r, calls } = await recording(() => change('price_startup1_monthly'));
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, {
      status: 'scheduled',
      plan: { key: 'startup', name: 'START UP' },
      priceId: 'price_startup1_monthly',
      effectiveDate: iso(PERIOD_END),
      invoiceId: null,
    });
    assert.equal(only(calls, 'POST', '/v1/subscription_schedules').form.from_subscription, 'sub_acme');
    const update = only(calls, 'POST', '/v1/subscription_schedules/sub_sched_1');
    assert.deepEqual(update.form, {
      end_behavior: 'release',
      proration_behavior: 'none',
      'phases[0][items][0][price]': 'price_growup1_monthly',
      'phases[0][items][0][quantity]': '1',
      'phases[0][start_date]': String(PERIOD_START),
      'phases[0][end_date]': String(PERIOD_END),
      'phases[1][items][0][price]': 'price_startup1_monthly',
      'phases[1][items][0][quantity]': '1',
      'phases[1][duration][interval]': 'month',
      'phases[1][duration][interval_count]': '1',
    });
    assert.equal(calls.filter((c) => c.path === '/v1/subscriptions/sub_acme').length, 0);
    assert.equal(await acmePlan(), 'growup');

    const o = await overview();
    assert.deepEqual(o.scheduledChange, {
      priceId: 'price_startup1_monthly',
      plan: 'START UP',
      period: 'monthly',
      effectiveDate: iso(PERIOD_END),
    });
  });

  it('scheduling it again changes nothing at Stripe', async () => {
    const { result: r, calls } = await recording(() => change('price_startup1_monthly'));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.status, 'scheduled');
    assert.deepEqual(
      calls.filter((c) => c.method === 'POST'),
      [],
    );
  });

  it('cancelling releases the schedule; a second cancel finds none', async () => {
    const cancel = () =>
      gw.request<{ message: string }>('/v1/billing/scheduled-change', { method: 'DELETE', token: owner });
    const { result: r, calls } = await recording(cancel);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.message, 'The scheduled plan change was cancelled.');
    only(calls, 'POST', '/v1/subscription_schedules/sub_sched_1/release');
    assert.equal((await overview()).scheduledChange, null);

    const again = await recording(cancel);
    assert.equal(again.result.body.message, 'No plan change was scheduled.');
    assert.equal(again.calls.filter((c) => c.path.endsWith('/release')).length, 0);
  });
});

describe('Stripe provider: an upgrade while a downgrade is scheduled', () => {
  it('releases the schedule (it would undo the upgrade at the period end), then charges the upgrade', async () => {
    const scheduledChange = await change('price_startup1_monthly');
    assert.equal(scheduledChange.body.status, 'scheduled', scheduledChange.text);
    assert.equal(state.schedule?.id, 'sub_sched_2');

    const { result: r, calls } = await recording(() => change('price_growup2_monthly'));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.status, 'changed');
    const posts = calls.filter((c) => c.method === 'POST').map((c) => c.path);
    assert.deepEqual(posts, ['/v1/subscription_schedules/sub_sched_2/release', '/v1/subscriptions/sub_acme']);
    assert.equal(state.schedule, null);
    assert.equal(state.price, 'price_growup2_monthly');
    assert.equal(await acmePlan(), 'growup');
    assert.equal((await overview()).scheduledChange, null);
  });
});

describe('Stripe provider: billing portal', () => {
  it("answers the Stripe session's URL and sends the customer and return_url", async () => {
    const returnUrl = `${CONSOLE}/account/billing`;
    const { result: r, calls } = await recording(() =>
      gw.post<PortalResponse>('/v1/billing/access-portal', { return_url: returnUrl }, owner),
    );
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.url, PORTAL_URL);
    assert.deepEqual(only(calls, 'POST', '/v1/billing_portal/sessions').form, {
      customer: CUSTOMER,
      return_url: returnUrl,
    });
  });

  it('a return_url outside the console is still a 400 and Stripe is not asked', async () => {
    const { result: r, calls } = await recording(() =>
      gw.post('/v1/billing/access-portal', { return_url: 'https://evil.test/' }, owner),
    );
    assert.equal(r.status, 400);
    assert.deepEqual(calls, []);
  });
});

describe('Stripe provider: webhook', () => {
  it('a correctly signed customer.subscription.updated sets the plan from the subscription', async () => {
    // A change made at Stripe (a schedule taking effect, the dashboard): SCALE UP now.
    state.price = priceIdOf('scaleup1', 'monthly');
    const payload = subscriptionEvent('customer.subscription.updated');
    const r = await webhook(payload, signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }));
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { received: true });
    assert.equal(await acmePlan(), 'scaleup');
    assert.ok((await me()).features.includes('view_advertising_emails'));
  });

  it('a bad or missing signature is a 400 and changes nothing', async () => {
    state.price = priceIdOf('basic1', 'monthly');
    const payload = subscriptionEvent('customer.subscription.updated');
    const wrong = await webhook(payload, signer.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' }));
    assert.equal(wrong.status, 400, wrong.text);
    assert.equal(wrong.body.message, INVALID_SIGNATURE);
    const tampered = await webhook(
      payload.replace('"customer.subscription.updated"', '"customer.subscription.deleted"'),
      signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
    );
    assert.equal(tampered.status, 400, tampered.text);
    const missing = await webhook(payload, null);
    assert.equal(missing.status, 400, missing.text);
    assert.equal(await acmePlan(), 'scaleup');
  });

  it('customer.subscription.deleted without an active subscription falls back to BASIC', async () => {
    state.active = false;
    try {
      const payload = subscriptionEvent('customer.subscription.deleted');
      const r = await webhook(payload, signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }));
      assert.equal(r.status, 200, r.text);
      assert.equal(await acmePlan(), 'basic');
    } finally {
      state.active = true;
    }
  });

  it('other events are acknowledged and change nothing', async () => {
    const payload = JSON.stringify({
      id: 'evt_other',
      object: 'event',
      type: 'invoice.paid',
      created: NOW_S,
      livemode: false,
      data: { object: invoice('in_first', { subtotal: 10000, tax: 2100 }) },
    });
    const { result: r, calls } = await recording(() =>
      webhook(payload, signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET })),
    );
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(calls, []);
    assert.equal(await acmePlan(), 'basic');
  });
});

describe('without STRIPE_SECRET_KEY', () => {
  it('the local provider serves billing and there is no webhook route', async () => {
    const local = await startGateway();
    try {
      const token = await local.login('acmeOwner');
      const o = await local.get<BillingOverview>('/v1/billing', token);
      assert.equal(o.status, 200, o.text);
      assert.equal(o.body.priceId, 'price_startup1_monthly');
      assert.equal(local.config.billing.provider, 'local');
      const payload = '{}';
      const r = await local.request('/v1/billing/webhook', {
        method: 'POST',
        rawBody: payload,
        headers: { 'stripe-signature': signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) },
      });
      assert.equal(r.status, 404);
    } finally {
      await local.close();
    }
  });
});
