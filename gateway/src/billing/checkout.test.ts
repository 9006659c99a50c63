// Checkout (spec sections 3, 4 and 9) over HTTP with the local provider: start → hosted page → pay with a test card →
// tenant, owner, billing account, subscription and invoice in one go; declines, double payments,
// taken e-mails, unknown prices, the one sign-in afterwards, expired and forged links.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { count, eq } from 'drizzle-orm';
import {
  CARD_DECLINED,
  CHECKOUT_EMAIL_TAKEN,
  type CheckoutCompleted,
  CheckoutStarted,
  PlanCatalogue,
  PLAN_FEATURES,
  TENANT_PERMISSIONS,
  type BillingOverview,
  type SessionUser,
} from '../contracts';
import { INVALID_CHECKOUT_LINK } from './checkout-page';
import { CHECKOUT_EXPIRED, COMPLETE_GONE, CHECKOUT_NOT_PAID } from './checkout-service';
import { signCheckoutToken } from './checkout-token';
import { signPortalToken } from './portal-token';
import { UNKNOWN_PRICE } from './providers/provider';
import {
  billingAccounts,
  checkoutSessions,
  communities,
  invoices,
  plans,
  subscriptions,
  tenants,
  users,
} from '../db/schema';
import { CHECKOUT_ADDRESS_MAX, TOO_MANY_CHECKOUTS } from './checkout-routes';
import { type ErrorBody, linkIn, startGateway, type TestGateway } from '../../test/helpers';

let gw: TestGateway;
before(async () => {
  gw = await startGateway();
});
after(() => gw.close());

const CONSOLE = 'http://localhost:3000';
const GOOD = { card_number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123' };
const DECLINING = { ...GOOD, card_number: '4000 0000 0000 0002' };

let n = 0;
/** An order with an e-mail of its own. */
const order = (over: Record<string, string> = {}) => {
  n += 1;
  return {
    price_id: 'price_growup1_monthly',
    tenant_name: `Rocket Club ${n}`,
    first_name: 'Rita',
    last_name: 'Rocket',
    email: `rita${n}@rocket.test`,
    password: 'rocket-pass-2026',
    ...over,
  };
};
const start = (body: unknown) => gw.post<CheckoutStarted & ErrorBody>('/v1/checkout', body);
const PAYMENT_MAIL = /^Continue your Community Console subscription$/;
const mailsTo = new Map<string, number>();
/** A started checkout, with the payment page's link from the e-mail it sent. */
async function started(body = order()) {
  const r = await start(body);
  assert.equal(r.status, 200, r.text);
  assert.ok(CheckoutStarted.safeParse(r.body).success);
  const nth = (mailsTo.get(body.email) ?? 0) + 1;
  mailsTo.set(body.email, nth);
  const mail = await gw.waitForMail(body.email, PAYMENT_MAIL, nth);
  const url = linkIn(mail, `${gw.config.onboarding.publicUrl}/billing/checkout/`);
  return { ...r.body, url, body };
}

interface Page {
  status: number;
  headers: Headers;
  text: string;
}
/** The hosted page at the path of `url` (the URL names the configured public address); redirects not followed. */
async function page(url: string, card?: Record<string, string>): Promise<Page> {
  const res = await fetch(`${gw.url}${new URL(url).pathname}`, {
    method: card ? 'POST' : 'GET',
    redirect: 'manual',
    ...(card
      ? { body: new URLSearchParams(card).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } }
      : {}),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}
const successUrl = (id: string) => `${CONSOLE}/checkout/success?session=${id}`;
const complete = (id: string, secret: string) =>
  gw.post<CheckoutCompleted & ErrorBody>(`/v1/checkout/${id}/complete`, { secret });
const tenantsNamed = async (name: string) => gw.handle.db.select().from(tenants).where(eq(tenants.name, name));
const session = async (id: string) => {
  const [row] = await gw.handle.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id));
  assert.ok(row, 'checkout session stored');
  return row;
};
const verify = async (token: string) => {
  const r = await gw.post<{ user: SessionUser }>('/v1/auth/verify', { token });
  assert.equal(r.status, 200, r.text);
  return r.body.user;
};

describe('GET /v1/plans/public', () => {
  it('gives the catalogue without a session', async () => {
    const r = await gw.get<PlanCatalogue>('/v1/plans/public');
    assert.equal(r.status, 200, r.text);
    assert.ok(PlanCatalogue.safeParse(r.body).success);
    assert.deepEqual(
      r.body.records.map((p) => p.name),
      ['BASIC', 'START UP', 'GROW UP', 'SCALE UP'],
    );
    assert.deepEqual(r.body.records[2]?.pricing[0]?.monthly, { price: 242.5, id: 'price_growup1_monthly' });
  });
});

describe('a checkout paid with the good card', () => {
  let s: Awaited<ReturnType<typeof started>>;
  before(async () => {
    s = await started();
  });

  it('refuses a repetitive, common or personal password with the reason on password (NIST SP 800-63B)', async () => {
    for (const [password, reason] of [
      ['aaaaaaaaaa', /^Repeated characters like "aaa" are easy to guess\./],
      ['password1234', /passwords commonly used on other websites\./],
      ['Rocket Club 1', /^Parts of your name, e-mail address or community name are easy to guess\./],
    ] as const) {
      const r = await start(order({ password, tenant_name: 'Rocket Club' }));
      assert.equal(r.status, 400, `${password}: ${r.text}`);
      assert.deepEqual(Object.keys(r.body.errors ?? {}), ['password'], password);
      assert.match(r.body.errors?.password?.[0] ?? '', reason, password);
    }
  });

  it('stores a pending checkout with the password hashed, never in clear', async () => {
    assert.ok(s.url.startsWith(`${gw.config.onboarding.publicUrl}/billing/checkout/`), s.url);
    const row = await session(s.session_id);
    assert.equal(row.status, 'pending');
    assert.equal(row.priceId, 'price_growup1_monthly');
    assert.equal(row.email, s.body.email);
    assert.match(row.passwordHash, /^\$argon2id\$/);
    assert.ok(!JSON.stringify(row).includes(s.body.password), 'the password is not stored');
    assert.ok(!row.completeSecretHash.includes(s.secret), 'only a hash of the secret is stored');
    assert.ok(row.expiresAt.getTime() > Date.now() + 50 * 60_000);
  });

  it('renders the order summary and the card form under a strict CSP, with no script', async () => {
    const p = await page(s.url);
    assert.equal(p.status, 200, p.text);
    assert.match(p.headers.get('content-type') ?? '', /text\/html/);
    const csp = p.headers.get('content-security-policy') ?? '';
    assert.ok(csp.includes("default-src 'none'"), csp);
    assert.ok(csp.includes(`form-action 'self' ${CONSOLE}`), csp);
    assert.ok(!/script-src/.test(csp), csp);
    assert.equal(p.headers.get('x-frame-options'), 'DENY');
    assert.ok(!/<script/i.test(p.text));
    for (const text of [
      'GROW UP',
      'Grow with confidence',
      '125.000 e-mails',
      'Monthly',
      '$242.50',
      'Tax (0%)',
      '$0.00',
    ]) {
      assert.ok(p.text.includes(text), `page shows ${text}`);
    }
    assert.ok(p.text.includes(`href="${CONSOLE}/checkout/price_growup1_monthly">Cancel</a>`), 'cancel link');
    for (const label of ['Card number', 'Expiration date (MM / YY)', 'Security code (CVC)']) {
      assert.ok(p.text.includes(label), label);
    }
    assert.ok(p.text.includes('<button type="submit">Pay $242.50</button>'));
  });

  it('pays, creates the tenant, its owner, billing account, subscription and paid invoice, and goes to the console', async () => {
    const before = Date.now();
    const p = await page(s.url, GOOD);
    assert.equal(p.status, 303, p.text);
    assert.equal(p.headers.get('location'), successUrl(s.session_id));

    const [tenant, ...more] = await tenantsNamed(s.body.tenant_name);
    assert.ok(tenant, 'tenant created');
    assert.equal(more.length, 0);
    assert.match(tenant.stripeCustomerId ?? '', /^cus_local_[0-9a-f]{24}$/);
    const [plan] = await gw.handle.db.select().from(plans).where(eq(plans.id, tenant.planId));
    assert.equal(plan?.key, 'growup');

    const members = await gw.handle.db.select().from(users).where(eq(users.tenantId, tenant.id));
    assert.equal(members.length, 1);
    const owner = members[0];
    assert.equal(owner?.email, s.body.email);
    assert.equal(owner?.role, 'tenant_admin');
    assert.deepEqual(owner?.permissions, [...TENANT_PERMISSIONS]);
    assert.deepEqual([owner?.firstName, owner?.lastName], ['Rita', 'Rocket']);
    assert.ok(owner?.emailConfirmedAt, 'e-mail confirmed: they paid with it');
    const [community] = await gw.handle.db.select().from(communities).where(eq(communities.tenantId, tenant.id));
    assert.equal(community?.title, s.body.tenant_name, 'the new tenant has its community');
    assert.match(community?.slug ?? '', /^rocket-club-\d+$/);
    assert.ok(community?.listId, 'with its sign-up list');

    const [account] = await gw.handle.db.select().from(billingAccounts).where(eq(billingAccounts.tenantId, tenant.id));
    assert.deepEqual(
      [account?.taxRate, account?.paymentMethodLabel, account?.paymentMethodFailing],
      [0, 'Visa •••• 4242', false],
    );
    const [sub] = await gw.handle.db.select().from(subscriptions).where(eq(subscriptions.tenantId, tenant.id));
    assert.equal(sub?.priceId, 'price_growup1_monthly');
    assert.equal(sub?.status, 'active');
    assert.ok(sub && sub.periodStart.getTime() >= before - 1000 && sub.periodStart.getTime() <= Date.now());
    const days = sub ? (sub.periodEnd.getTime() - sub.periodStart.getTime()) / 86_400_000 : 0;
    assert.ok(days >= 28 && days <= 31, `a monthly period: ${days} days`);
    const bills = await gw.handle.db.select().from(invoices).where(eq(invoices.tenantId, tenant.id));
    assert.deepEqual(
      bills.map((b) => [b.status, b.subtotalCents, b.taxCents, b.totalCents, b.priceId]),
      [['paid', 24250, 0, 24250, 'price_growup1_monthly']],
    );

    const row = await session(s.session_id);
    assert.equal(row.status, 'paid');
    assert.equal(row.tenantId, tenant.id);
    assert.equal(row.userId, owner?.id);
    assert.equal(row.passwordHash, '', 'the checkout keeps no copy of the hash');
  });

  it('the owner signs in with the chosen password and has the plan’s permissions and billing', async () => {
    const r = await gw.post<{ token: string }>('/v1/auth/login', { email: s.body.email, password: s.body.password });
    assert.equal(r.status, 200, r.text);
    const user = await verify(r.body.token);
    assert.equal(user.tenant_name, s.body.tenant_name);
    assert.equal(user.role, 'tenant_admin');
    assert.deepEqual([...user.features].sort(), [...PLAN_FEATURES.growup].sort());
    assert.ok(user.permissions.includes('manage_domains'), 'GROW UP unlocks custom domains');
    assert.ok(user.permissions.includes('company_settings'));
    assert.ok(!user.permissions.includes('admin_tenants'));
    const billing = await gw.get<BillingOverview>('/v1/billing', r.body.token);
    assert.equal(billing.status, 200, billing.text);
    assert.equal(billing.body.billing, true);
    assert.equal(billing.body.plan.name, 'GROW UP');
    assert.equal(billing.body.priceId, 'price_growup1_monthly');
    assert.equal(billing.body.invoices.length, 1);
    const wrong = await gw.post('/v1/auth/login', { email: s.body.email, password: 'not-the-password' });
    assert.equal(wrong.status, 401);
  });

  it('paying twice (or opening the page again) creates and charges nothing more', async () => {
    const again = await page(s.url, GOOD);
    assert.equal(again.status, 303);
    assert.equal(again.headers.get('location'), successUrl(s.session_id));
    const declinedNow = await page(s.url, DECLINING);
    assert.equal(declinedNow.status, 303, 'a paid checkout takes no card');
    const opened = await page(s.url);
    assert.equal(opened.status, 303);
    const found = await tenantsNamed(s.body.tenant_name);
    assert.equal(found.length, 1);
    const [bills] = await gw.handle.db
      .select({ n: count() })
      .from(invoices)
      .where(eq(invoices.tenantId, found[0]?.id ?? ''));
    assert.equal(bills?.n, 1);
  });

  it('completing gives a session token once, only with the secret', async () => {
    const wrong = await complete(s.session_id, 'not-the-secret');
    assert.equal(wrong.status, 404, wrong.text);
    const r = await complete(s.session_id, s.secret);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.checkout.plan, { key: 'growup', name: 'GROW UP', label: 'Grow with confidence' });
    assert.equal(r.body.checkout.tenant_name, s.body.tenant_name);
    assert.equal(r.body.checkout.amount, 242.5);
    assert.equal(r.body.checkout.period, 'monthly');
    assert.equal(r.body.checkout.emails, '125.000');
    const user = await verify(r.body.token);
    assert.equal(user.email, s.body.email);
    assert.ok(user.permissions.includes('manage_domains'));
    const second = await complete(s.session_id, s.secret);
    assert.equal(second.status, 410, second.text);
    assert.equal(second.body.message, COMPLETE_GONE);
  });
});

describe('payments that do not go through', () => {
  it('a declined card shows the error, stays on the page and creates nothing', async () => {
    const s = await started();
    const p = await page(s.url, DECLINING);
    assert.equal(p.status, 402, p.text);
    assert.ok(p.text.includes(`<p class="error" role="alert">${CARD_DECLINED}</p>`));
    assert.ok(p.text.includes('<form'), 'the card form is still there');
    assert.ok(p.text.includes('value="12 / 34"'), 'the expiry is kept');
    assert.ok(!p.text.includes('4000 0000 0000 0002"'), 'the card number is not echoed');
    assert.equal((await tenantsNamed(s.body.tenant_name)).length, 0);
    assert.equal((await session(s.session_id)).status, 'pending');
    const notPaid = await complete(s.session_id, s.secret);
    assert.equal(notPaid.status, 409);
    assert.equal(notPaid.body.message, CHECKOUT_NOT_PAID);
    // The good card still pays afterwards.
    const paid = await page(s.url, GOOD);
    assert.equal(paid.status, 303);
    assert.equal((await tenantsNamed(s.body.tenant_name)).length, 1);
  });

  it('card field errors: invalid number, past expiry, bad CVC', async () => {
    const s = await started();
    const p = await page(s.url, { card_number: '4242 4242 4242 4241', expiry: '01/20', cvc: '1' });
    assert.equal(p.status, 400);
    for (const message of [
      'Your card number is invalid.',
      'Your card has expired.',
      'Your card&#39;s security code is invalid.',
    ]) {
      assert.ok(p.text.includes(message), message);
    }
    assert.ok(p.text.includes('aria-invalid="true" aria-describedby="card_number-error" autofocus'));
    assert.equal((await tenantsNamed(s.body.tenant_name)).length, 0);
  });

  it('an e-mail that got an account meanwhile: nothing is created, the checkout ends', async () => {
    const email = 'twice@rocket.test';
    const first = await started(order({ email }));
    const second = await started(order({ email }));
    assert.equal((await page(first.url, GOOD)).status, 303);
    const p = await page(second.url, GOOD);
    assert.equal(p.status, 409, p.text);
    assert.ok(p.text.includes(CHECKOUT_EMAIL_TAKEN));
    assert.equal((await tenantsNamed(second.body.tenant_name)).length, 0);
    assert.equal((await session(second.session_id)).status, 'expired');
  });
});

describe('what POST /v1/checkout refuses', () => {
  it('an e-mail that already has an account: the same answer, and its owner is told by e-mail', async () => {
    const fresh = await start(order({ email: 'brand-new@rocket.test' }));
    for (const email of ['owner@acme.test', 'OWNER@Acme.test']) {
      const r = await start(order({ email }));
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(Object.keys(r.body).sort(), Object.keys(fresh.body).sort());
      assert.equal(r.body.message, fresh.body.message);
      assert.equal(r.headers.get('content-length'), fresh.headers.get('content-length'));
      // Its checkout cannot be told apart afterwards either: not paid, like any other.
      assert.equal((await complete(r.body.session_id, r.body.secret)).status, 409);
    }
    assert.equal((await complete(fresh.body.session_id, fresh.body.secret)).status, 409);
    const note = await gw.waitForMail('owner@acme.test', /^You already have a Community Console account$/, 2);
    assert.ok(note.text.includes(CHECKOUT_EMAIL_TAKEN), note.text);
    assert.ok(note.text.includes(`${gw.config.consoleUrl}/login`));
    assert.ok(!note.text.includes('/billing/checkout/'), 'no payment link');
    await gw.waitForMail('brand-new@rocket.test', PAYMENT_MAIL);
    assert.ok(!(await gw.mails()).some((m) => m.to.includes('owner@acme.test') && PAYMENT_MAIL.test(m.subject)));
  });

  it('an unknown price: 400', async () => {
    const r = await start(order({ price_id: 'price_nope_monthly' }));
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.message, UNKNOWN_PRICE);
    assert.deepEqual(r.body.errors, { price_id: [UNKNOWN_PRICE] });
  });

  it('bad fields: field errors with the password rules of the gateway', async () => {
    const r = await start({
      ...order(),
      tenant_name: '  ',
      email: 'nope',
      password: 'short',
      first_name: 'x'.repeat(101),
    });
    assert.equal(r.status, 400, r.text);
    assert.deepEqual(r.body.errors?.password, ['Use at least 10 characters.']);
    assert.deepEqual(r.body.errors?.email, ['Enter a valid e-mail address.']);
    assert.deepEqual(r.body.errors?.tenant_name, ['Enter the name of your community.']);
    assert.deepEqual(r.body.errors?.first_name, ['Use at most 100 characters.']);
  });
});

describe('expired and forged links', () => {
  it('an expired checkout can no longer be paid', async () => {
    const s = await started();
    await gw.handle.db
      .update(checkoutSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(checkoutSessions.id, s.session_id));
    const opened = await page(s.url);
    assert.equal(opened.status, 410);
    assert.ok(opened.text.includes(CHECKOUT_EXPIRED));
    assert.ok(opened.text.includes(`href="${CONSOLE}/checkout/price_growup1_monthly">Start again</a>`));
    const paid = await page(s.url, GOOD);
    assert.equal(paid.status, 410);
    assert.equal((await tenantsNamed(s.body.tenant_name)).length, 0);
    const row = await session(s.session_id);
    assert.equal(row.status, 'expired');
    assert.equal(row.passwordHash, '');
    assert.equal((await complete(s.session_id, s.secret)).status, 410);
  });

  it('a paid checkout signs in only within 30 minutes of the payment', async () => {
    const s = await started();
    assert.equal((await page(s.url, GOOD)).status, 303);
    await gw.handle.db
      .update(checkoutSessions)
      .set({ paidAt: new Date(Date.now() - 31 * 60_000) })
      .where(eq(checkoutSessions.id, s.session_id));
    const r = await complete(s.session_id, s.secret);
    assert.equal(r.status, 410);
    assert.equal(r.body.message, COMPLETE_GONE);
  });

  it('forged, changed, expired or foreign tokens get an error page and pay nothing', async () => {
    const s = await started();
    const token = new URL(s.url).pathname.split('/').pop() ?? '';
    const [payload = '', signature = ''] = token.split('.');
    const other = new TextEncoder().encode('another-secret-of-at-least-32-characters!!');
    const bad = [
      `${payload}.${signature.slice(0, -2)}xx`,
      `${Buffer.from(JSON.stringify({ s: s.session_id, e: Date.now() + 9e9 })).toString('base64url')}.${signature}`,
      signCheckoutToken(gw.config.jwtSecret, { sessionId: s.session_id, expiresAt: Date.now() - 1 }),
      signCheckoutToken(other, { sessionId: s.session_id, expiresAt: Date.now() + 60_000 }),
      signPortalToken(gw.config.jwtSecret, { tenantId: s.session_id, returnUrl: CONSOLE }),
      'nonsense',
    ];
    for (const t of bad) {
      const opened = await page(`http://x/billing/checkout/${t}`);
      assert.equal(opened.status, 400, t);
      assert.ok(opened.text.includes(INVALID_CHECKOUT_LINK.replace("'", '&#39;')));
      const paid = await page(`http://x/billing/checkout/${t}`, GOOD);
      assert.equal(paid.status, 400, t);
    }
    assert.equal((await tenantsNamed(s.body.tenant_name)).length, 0);
    assert.equal((await session(s.session_id)).status, 'pending');
  });

  it('complete: an unknown checkout is 404, a malformed id 400', async () => {
    assert.equal((await complete('00000000-0000-4000-8000-000000000000', 'x')).status, 404);
    assert.equal((await complete('not-a-uuid', 'x')).status, 400);
  });
});

describe('escaping', () => {
  it('every text the customer typed is escaped on the hosted page', async () => {
    const s = await started(
      order({ tenant_name: '<script>alert(1)</script> & "Co"', first_name: '<b>x</b>', email: 'esc@rocket.test' }),
    );
    const p = await page(s.url);
    assert.equal(p.status, 200);
    assert.ok(!p.text.includes('<script>alert(1)'));
    assert.ok(p.text.includes('&#60;script&#62;alert(1)&#60;/script&#62; &#38; &#34;Co&#34;'));
  });
});

describe('rate limit', () => {
  it('too many checkouts from one address: 429 with Retry-After', async () => {
    let last = await start(order({ price_id: 'price_nope_monthly' }));
    for (let i = 0; i < CHECKOUT_ADDRESS_MAX && last.status !== 429; i++) {
      last = await start(order({ price_id: 'price_nope_monthly' }));
    }
    assert.equal(last.status, 429);
    assert.equal(last.body.message, TOO_MANY_CHECKOUTS);
    assert.ok(Number(last.headers.get('retry-after')) > 0);
  });
});
