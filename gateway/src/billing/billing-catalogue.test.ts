import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BILLING_PERIODS, type BillingPeriod, PLAN_FEATURES, PLAN_KEYS, type PlanKey } from '../contracts';
import { CATALOGUE, cataloguePriceRows, formatVolume, priceIdOf } from './catalogue';

/** Spec section 9, as printed (US dollars; the six-month prices are the spec's 'Six-month'). */
const SPEC: Record<PlanKey, { name: string; label: string } & Record<BillingPeriod, number[]>> = {
  basic: {
    name: 'BASIC',
    label: 'Kickstart your project',
    monthly: [50, 65, 70, 80, 90],
    semiAnnual: [285, 342, 399, 456, 513],
    yearly: [552, 662.4, 772.8, 883.2, 993.6],
  },
  startup: {
    name: 'START UP',
    label: 'For expanding projects',
    monthly: [100, 112.5, 120, 135, 150],
    semiAnnual: [570, 641.25, 684, 769.5, 855],
    yearly: [1104, 1242, 1324.8, 1490.4, 1656],
  },
  growup: {
    name: 'GROW UP',
    label: 'Grow with confidence',
    monthly: [242.5, 347.5, 422.5, 480.5, 547.5],
    semiAnnual: [1382.25, 1980.75, 2408.25, 2736, 3120.75],
    yearly: [2677.2, 3836.4, 4664.4, 5299.2, 6044.4],
  },
  scaleup: {
    name: 'SCALE UP',
    label: 'Scale big communities',
    monthly: [600, 722.5, 765.5, 827.5, 975],
    semiAnnual: [3420, 4118.5, 4360.5, 4761.75, 557.5],
    yearly: [6624, 7976.4, 8445.6, 9135.6, 10764],
  },
};

/** The one printed price we do not store as printed (a dropped digit: 5.7 × 975 = 5557.5). */
const CORRECTED: Record<string, number> = { 'scaleup5:semiAnnual': 5557.5 };

/** Volume ranges of section 9 (first and last option). */
const RANGES: Record<PlanKey, [number, number]> = {
  basic: [10_000, 50_000],
  startup: [60_000, 100_000],
  growup: [125_000, 500_000],
  scaleup: [600_000, 1_250_000],
};

const cents = (dollars: number) => Math.round(dollars * 100);

describe('the catalogue against spec section 9', () => {
  it('has the four plans in order with their names and labels, five options each', () => {
    assert.deepEqual(
      CATALOGUE.map((p) => p.key),
      [...PLAN_KEYS],
    );
    for (const plan of CATALOGUE) {
      assert.equal(plan.name, SPEC[plan.key].name);
      assert.equal(plan.label, SPEC[plan.key].label);
      assert.equal(plan.options.length, 5, plan.key);
      assert.deepEqual(
        plan.options.map((o) => o.key),
        [1, 2, 3, 4, 5].map((i) => `${plan.key}${i}`),
      );
    }
  });

  for (const plan of CATALOGUE) {
    for (const period of BILLING_PERIODS) {
      it(`${plan.name} ${period}: every price as printed`, () => {
        const expected = SPEC[plan.key][period].map((printed, i) => {
          const corrected = CORRECTED[`${plan.key}${i + 1}:${period}`];
          return cents(corrected ?? printed);
        });
        assert.deepEqual(
          plan.options.map((o) => o.cents[period]),
          expected,
        );
      });
    }
  }

  it("stores SCALE UP's fifth six-month price as 5557.5, not the printed 557.5", () => {
    const scaleup5 = CATALOGUE.find((p) => p.key === 'scaleup')?.options[4];
    assert.equal(scaleup5?.cents.semiAnnual, 555_750);
    assert.equal(scaleup5?.cents.semiAnnual, Math.round((scaleup5?.cents.monthly ?? 0) * 5.7));
  });

  it('e-mail volumes: five rising steps within each plan’s range, formatted with dots', () => {
    for (const plan of CATALOGUE) {
      const limits = plan.options.map((o) => o.emailLimit);
      assert.equal(limits[0], RANGES[plan.key][0], plan.key);
      assert.equal(limits[4], RANGES[plan.key][1], plan.key);
      for (let i = 1; i < limits.length; i++) assert.ok((limits[i] ?? 0) > (limits[i - 1] ?? 0), plan.key);
      for (const o of plan.options) assert.equal(o.emails, formatVolume(o.emailLimit));
    }
    assert.equal(formatVolume(10_000), '10.000');
    assert.equal(formatVolume(1_250_000), '1.250.000');
    assert.equal(formatVolume(999), '999');
  });

  it('price ids are price_<key>_<period>, unique, sixty in all', () => {
    const rows = cataloguePriceRows();
    assert.equal(rows.length, 60);
    assert.equal(new Set(rows.map((r) => r.priceId)).size, 60);
    assert.equal(priceIdOf('startup3', 'monthly'), 'price_startup3_monthly');
    for (const r of rows) assert.equal(r.priceId, `price_${r.optionKey}_${r.period}`);
  });

  // Six months = 6 × monthly less 5 % (5.7 ×); a year = 12 × monthly less 8 % (11.04 ×). Where the
  // printed figures break the pattern they are kept as printed; these are all such places.
  const SIX_MONTH_BREAKS = ['basic2', 'growup4', 'scaleup2', 'scaleup3', 'scaleup4'];
  const YEARLY_BREAKS = ['basic2', 'growup4', 'scaleup3'];
  const breaks = (factor: number, period: BillingPeriod) =>
    CATALOGUE.flatMap((p) => p.options)
      .filter((o) => o.cents[period] !== Math.round(o.cents.monthly * factor))
      .map((o) => o.key);

  it('six-month = 5.7 × monthly everywhere but the listed printed exceptions', () => {
    assert.deepEqual(breaks(5.7, 'semiAnnual'), SIX_MONTH_BREAKS);
  });

  it('yearly = 11.04 × monthly (12 months less 8 %) everywhere but the listed printed exceptions', () => {
    assert.deepEqual(breaks(11.04, 'yearly'), YEARLY_BREAKS);
  });

  it('where monthly breaks both patterns, six-month and yearly agree on another monthly figure', () => {
    // basic2 65 (60), growup4 480.5 (480), scaleup3 765.5 (765): the monthly figure is the odd one out.
    for (const [key, implied] of [
      ['basic2', 60],
      ['growup4', 480],
      ['scaleup3', 765],
    ] as const) {
      const o = CATALOGUE.flatMap((p) => p.options).find((x) => x.key === key);
      assert.equal(o?.cents.semiAnnual, Math.round(cents(implied) * 5.7), key);
      assert.equal(o?.cents.yearly, Math.round(cents(implied) * 11.04), key);
    }
  });

  it('card features: BASIC as the spec lists; START UP adds AI newsletters and airdrops; cumulative upward', () => {
    const byKey = Object.fromEntries(CATALOGUE.map((p) => [p.key, p.cardFeatures]));
    assert.deepEqual(byKey.basic, ['E-mail support', '2 smart contracts', 'Up to 50.000 e-mails']);
    assert.ok(byKey.startup?.includes('AI Powered Newsletters'));
    assert.ok(byKey.startup?.includes('Token Airdrops'));
    assert.ok(byKey.growup?.includes('Dedicated support'));
    assert.ok(byKey.growup?.includes('3 smart contracts'));
    assert.ok(byKey.scaleup?.includes('+3 Smart Contracts'));
    for (const key of ['growup', 'scaleup'] as const) {
      assert.ok(byKey[key]?.includes('AI Powered Newsletters'), key);
      assert.ok(byKey[key]?.includes('Token Airdrops'), key);
    }
  });

  it('grants are the console features of the plan (shared vocabulary)', () => {
    for (const plan of CATALOGUE) assert.deepEqual(plan.grants, PLAN_FEATURES[plan.key]);
  });
});
