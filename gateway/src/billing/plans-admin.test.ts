// PATCH /v1/plans/{id} (admin_plans): platform admins edit the catalogue; GET /v1/plans and the
// change summary use the edit at once; field errors in the house shape; never a 500.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { eq, inArray } from 'drizzle-orm';
import {
  type ChangeSummary,
  PLAN_EDIT_MESSAGES,
  type Plan,
  type PlanCatalogue,
  type PlanKey,
  type PlanUpdate,
} from '../contracts';
import { invoices, planPrices, plans } from '../db/schema';
import { seedPlans } from '../seed';
import { tenantId } from '../../test/audience-helpers';
import { type ErrorBody, startGateway, type TestGateway } from '../../test/helpers';

let gw: TestGateway;
let admin: string;
let owner: string;

before(async () => {
  gw = await startGateway();
  [admin, owner] = await Promise.all([gw.login('admin'), gw.login('acmeOwner')]);
});
after(() => gw.close());

async function catalogue(token = owner): Promise<Plan[]> {
  const r = await gw.get<PlanCatalogue>('/v1/plans', token);
  assert.equal(r.status, 200, r.text);
  return r.body.records;
}

async function plan(key: PlanKey): Promise<Plan> {
  const found = (await catalogue()).find((p) => p.key === key);
  assert.ok(found, key);
  return found;
}

/** The editor's body for a plan as it is. */
function bodyOf(p: Plan): Required<PlanUpdate> {
  return {
    label: p.label,
    features: [...p.features],
    pricing: p.pricing.map((o) => ({
      key: o.key,
      emails: o.emails,
      monthly: { ...o.monthly },
      semiAnnual: { ...o.semiAnnual },
      yearly: { ...o.yearly },
    })),
  };
}

const patch = (id: string, body: unknown, token: string | null = admin) =>
  gw.request<Plan & ErrorBody>(`/v1/plans/${id}`, { method: 'PATCH', body, token });

/** A 400 whose field errors include `key` with `message` (when given). */
function assertFieldError(r: { status: number; body: ErrorBody; text: string }, key: string, message?: string) {
  assert.equal(r.status, 400, r.text);
  assert.equal(r.body.message, 'Invalid input');
  const messages = r.body.errors?.[key];
  assert.ok(messages && messages.length > 0, `no error for ${key}: ${r.text}`);
  if (message) assert.ok(messages.includes(message), `${key}: ${messages.join(' | ')}`);
}

describe('editing a plan', () => {
  it('label, features and prices: answered, listed by GET /v1/plans, stored in cents with the e-mail limit', async () => {
    const startup = await plan('startup');
    const body = bodyOf(startup);
    body.label = '  For expanding teams ';
    body.features = ['E-mail support', ' Priority onboarding ', 'Token Airdrops'];
    const first = body.pricing[0];
    assert.ok(first);
    first.monthly.price = 101;
    first.semiAnnual.price = 575.55;
    first.emails = '65.000';

    const r = await patch(startup._id, body);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.label, 'For expanding teams');
    assert.deepEqual(r.body.features, ['E-mail support', 'Priority onboarding', 'Token Airdrops']);
    assert.equal(r.body.pricing[0]?.monthly.price, 101);
    assert.equal(r.body.pricing[0]?.semiAnnual.price, 575.55);
    assert.equal(r.body.pricing[0]?.emails, '65.000');
    assert.deepEqual(r.body.grants, startup.grants, 'console features are not edited here');

    // Every signed-in user sees the edit (the plan picker reads this).
    const listed = await plan('startup');
    assert.deepEqual(listed, r.body);
    assert.equal(listed.pricing.length, 5);

    const [row] = await gw.handle.db
      .select()
      .from(planPrices)
      .where(eq(planPrices.priceId, 'price_startup1_semiAnnual'));
    assert.equal(row?.amountCents, 57_555);
    assert.equal(row?.emailLimit, 65_000);
    assert.equal(row?.emails, '65.000');
  });

  it('a new price id is used at once: the change summary bills the new price; invoices follow the rename', async () => {
    const basic = await plan('basic');
    const basicGuild = await tenantId(gw, 'Basic Guild');
    // An old invoice of the price that is renamed.
    const [invoice] = await gw.handle.db
      .insert(invoices)
      .values({
        tenantId: basicGuild,
        priceId: 'price_basic1_monthly',
        description: 'BASIC',
        subtotalCents: 5000,
        taxCents: 0,
        totalCents: 5000,
        status: 'paid',
      })
      .returning({ id: invoices.id });
    assert.ok(invoice);

    const body = bodyOf(basic);
    const first = body.pricing[0];
    assert.ok(first);
    first.monthly = { price: 52.5, id: 'basic-small-monthly' };
    const r = await patch(basic._id, body);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.pricing[0]?.monthly, { price: 52.5, id: 'basic-small-monthly' });

    // Acme (START UP) downgrading to it: the summary bills 52.50.
    const s = await gw.get<ChangeSummary & ErrorBody>('/v1/billing/change-summary/basic-small-monthly', owner);
    assert.equal(s.status, 200, s.text);
    assert.equal(s.body.movement, 'downgrade');
    assert.equal(s.body.newPlan, 'BASIC');
    assert.equal(s.body.subtotal, 52.5);
    const old = await gw.get<ErrorBody>('/v1/billing/change-summary/price_basic1_monthly', owner);
    assert.ok(old.status >= 400 && old.status < 500, old.text);

    const [moved] = await gw.handle.db
      .select({ priceId: invoices.priceId })
      .from(invoices)
      .where(eq(invoices.id, invoice.id));
    assert.equal(moved?.priceId, 'basic-small-monthly');
    const rows = await gw.handle.db
      .select({ priceId: planPrices.priceId, optionKey: planPrices.optionKey, position: planPrices.position })
      .from(planPrices)
      .where(inArray(planPrices.priceId, ['basic-small-monthly', 'price_basic1_monthly']));
    assert.deepEqual(rows, [{ priceId: 'basic-small-monthly', optionKey: 'basic1', position: 0 }]);
  });

  it('a partial body edits only what it names', async () => {
    const growup = await plan('growup');
    const r = await patch(growup._id, { label: 'Grow with more confidence' });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { ...growup, label: 'Grow with more confidence' });
  });
});

describe('validation', () => {
  it('field errors per field, keyed by path', async () => {
    const scaleup = await plan('scaleup');
    const body = bodyOf(scaleup);
    const [o0, o1, o2] = body.pricing;
    assert.ok(o0 && o1 && o2);
    o0.emails = '600000';
    o0.monthly.price = 0;
    o1.semiAnnual.price = 12.345;
    o2.yearly.price = 1_000_001;
    o2.yearly.id = 'no spaces';
    o1.monthly.id = 'ab';
    const r = await patch(scaleup._id, { ...body, label: '   ', features: ['Fine', '  '] });
    assertFieldError(r, 'label', 'Enter a label.');
    assertFieldError(r, 'features.1', 'Enter a feature or remove the row.');
    assertFieldError(r, 'pricing.0.emails', 'Use dots as thousands separators, e.g. 10.000.');
    assertFieldError(r, 'pricing.0.monthly.price', 'Enter a price above 0.');
    assertFieldError(r, 'pricing.1.semiAnnual.price', 'Use at most 2 decimals.');
    assertFieldError(r, 'pricing.2.yearly.price', 'Use at most 1,000,000.');
    assertFieldError(r, 'pricing.2.yearly.id', 'Use letters, digits, _ and - only.');
    assertFieldError(r, 'pricing.1.monthly.id', 'Use at least 3 characters.');
    // Nothing stored.
    assert.deepEqual(await plan('scaleup'), scaleup);
  });

  it('limits: label 100, 1-12 features of at most 120, five options', async () => {
    const basic = await plan('basic');
    assertFieldError(await patch(basic._id, { label: 'x'.repeat(101) }), 'label');
    assertFieldError(await patch(basic._id, { features: [] }), 'features', 'Add at least one feature.');
    assertFieldError(await patch(basic._id, { features: Array.from({ length: 13 }, (_, i) => `F${i}`) }), 'features');
    assertFieldError(await patch(basic._id, { features: ['ok', 'y'.repeat(121)] }), 'features.1');
    assertFieldError(await patch(basic._id, { pricing: bodyOf(basic).pricing.slice(0, 4) }), 'pricing');
    assert.equal((await patch(basic._id, { label: 'x'.repeat(100) })).status, 200);
  });

  it('duplicate feature texts are refused', async () => {
    const basic = await plan('basic');
    const r = await patch(basic._id, { features: ['E-mail support', 'e-mail support'] });
    assertFieldError(r, 'features.1', PLAN_EDIT_MESSAGES.duplicateFeature);
  });

  it('the options are the plan’s own, in order; volumes rise', async () => {
    const growup = await plan('growup');
    const swapped = bodyOf(growup);
    const [a, b] = swapped.pricing;
    assert.ok(a && b);
    swapped.pricing[0] = b;
    swapped.pricing[1] = a;
    const r = await patch(growup._id, swapped);
    assertFieldError(r, 'pricing.0.key', 'Expected the option growup1 here.');
    assertFieldError(r, 'pricing.1.key', 'Expected the option growup2 here.');

    const falling = bodyOf(growup);
    const third = falling.pricing[2];
    assert.ok(third);
    third.emails = '200.000'; // the same as the option before
    assertFieldError(await patch(growup._id, falling), 'pricing.2.emails', PLAN_EDIT_MESSAGES.volumeNotRising);
    third.emails = '150.000';
    assertFieldError(await patch(growup._id, falling), 'pricing.2.emails', PLAN_EDIT_MESSAGES.volumeNotRising);
  });

  it('a price id used by another price (another plan, or twice in the body) is refused; nothing is stored', async () => {
    const growup = await plan('growup');
    const body = bodyOf(growup);
    body.label = 'Should not be stored';
    const [o0, o1] = body.pricing;
    assert.ok(o0 && o1);
    o0.monthly.id = 'price_scaleup1_monthly';
    o1.yearly.id = 'twice-used';
    o1.semiAnnual.id = 'twice-used';
    const r = await patch(growup._id, body);
    assertFieldError(r, 'pricing.0.monthly.id', PLAN_EDIT_MESSAGES.priceIdTaken);
    assertFieldError(r, 'pricing.1.yearly.id', PLAN_EDIT_MESSAGES.priceIdTaken);
    assertFieldError(r, 'pricing.1.semiAnnual.id', PLAN_EDIT_MESSAGES.priceIdTaken);
    assert.equal(Object.keys(r.body.errors ?? {}).length, 3, r.text);
    assert.deepEqual(await plan('growup'), growup);

    // Another option's id of the same plan is taken too (no swaps in one save).
    const swap = bodyOf(growup);
    const [s0, s1] = swap.pricing;
    assert.ok(s0 && s1);
    [s0.monthly.id, s1.monthly.id] = [s1.monthly.id, s0.monthly.id];
    const swapped = await patch(growup._id, swap);
    assertFieldError(swapped, 'pricing.0.monthly.id', PLAN_EDIT_MESSAGES.priceIdTaken);
  });

  it('a price id a subscription uses keeps its id; its price may change', async () => {
    const startup = await plan('startup');
    const body = bodyOf(startup);
    const first = body.pricing[0];
    assert.ok(first);
    first.monthly.id = 'startup-renamed';
    const r = await patch(startup._id, body);
    assertFieldError(r, 'pricing.0.monthly.id', PLAN_EDIT_MESSAGES.priceIdInUse);

    first.monthly = { id: 'price_startup1_monthly', price: 99.99 };
    const ok = await patch(startup._id, body);
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.pricing[0]?.monthly.price, 99.99);
  });
});

describe('access and bad input', () => {
  it('401 without a session, 403 for tenant owners and staff', async () => {
    const basic = await plan('basic');
    assert.equal((await patch(basic._id, { label: 'Nope' }, null)).status, 401);
    const byOwner = await patch(basic._id, { label: 'Nope' }, owner);
    assert.equal(byOwner.status, 403, byOwner.text);
    const staff = await gw.login('acmeStaff');
    assert.equal((await patch(basic._id, { label: 'Nope' }, staff)).status, 403);
    assert.notEqual((await plan('basic')).label, 'Nope');
  });

  it('a global admin (admin_plans) may edit', async () => {
    const global = await gw.login('global');
    const basic = await plan('basic');
    const r = await patch(basic._id, { label: 'Kickstart your project' }, global);
    assert.equal(r.status, 200, r.text);
  });

  it('404 for an unknown plan', async () => {
    for (const id of [randomUUID(), 'not-a-uuid']) {
      const r = await patch(id, { label: 'x' });
      assert.equal(r.status, 404, r.text);
      assert.equal(r.body.message, 'Plan not found.');
    }
  });

  it('bad input is a 4xx with a message, never a 500', async () => {
    const [row] = await gw.handle.db.select({ id: plans.id }).from(plans).where(eq(plans.key, 'basic'));
    assert.ok(row);
    const basic = await plan('basic');
    const five = bodyOf(basic).pricing;
    const bodies: unknown[] = [
      null,
      [],
      'label',
      42,
      { label: 7 },
      { label: null },
      { features: 'x' },
      { features: [1, 2] },
      { features: [null] },
      { pricing: 'x' },
      { pricing: {} },
      { pricing: [null, null, null, null, null] },
      { pricing: five.map((o) => ({ ...o, monthly: null })) },
      { pricing: five.map((o) => ({ ...o, key: 7 })) },
      { pricing: five.map((o) => ({ ...o, emails: '999.999.999.999' })) },
      { pricing: five.map((o) => ({ ...o, emails: '10.000.' })) },
      { pricing: five.map((o) => ({ ...o, monthly: { price: '50', id: o.monthly.id } })) },
      { pricing: five.map((o) => ({ ...o, monthly: { price: 1e308, id: o.monthly.id } })) },
      { pricing: five.map((o) => ({ ...o, monthly: { price: -1, id: o.monthly.id } })) },
      { pricing: five.map((o) => ({ ...o, monthly: { price: 50, id: 'x'.repeat(101) } })) },
      { pricing: five.map((o) => ({ ...o, monthly: { price: 50, id: 'price:with:colon' } })) },
      { pricing: Array.from({ length: 6 }, () => five[0]) },
    ];
    for (const body of bodies) {
      const r = await patch(row.id, body);
      assert.ok(r.status >= 400 && r.status < 500, `${JSON.stringify(body)?.slice(0, 80)} -> ${r.status} ${r.text}`);
      assert.equal(typeof r.body.message, 'string');
    }
    const raw = await gw.request<ErrorBody>(`/v1/plans/${row.id}`, {
      method: 'PATCH',
      token: admin,
      rawBody: '{"label":',
    });
    assert.equal(raw.status, 400, raw.text);
    assert.deepEqual(await plan('basic'), basic);
  });
});

describe('a gateway restart keeps the catalogue admins edited', () => {
  it('the start-up seed neither overwrites edits nor trips over a renamed price id', async () => {
    const growup = await plan('growup');
    const body = bodyOf(growup);
    body.label = 'Edited before a restart';
    const second = body.pricing[1];
    assert.ok(second);
    second.yearly = { price: 3900, id: 'growup-two-yearly-renamed' };
    assert.equal((await patch(growup._id, body)).status, 200);
    const before = await plan('growup');

    await seedPlans(gw.handle.db); // what every gateway start runs

    assert.deepEqual(await plan('growup'), before);
    const [stored] = await gw.handle.db.select({ n: plans.id }).from(plans).where(eq(plans.key, 'growup'));
    assert.equal(stored?.n, growup._id, 'the same plan row');
  });
});
