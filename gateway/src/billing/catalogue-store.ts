/** The plan catalogue as stored (plans + plan_prices), in the contract's shape. */
import { asc, eq } from 'drizzle-orm';
import { BILLING_PERIODS, type BillingPeriod, type Plan, PLAN_KEYS, type PricingOption } from '../contracts';
import type { Database } from '../db/index';
import { planPrices, plans } from '../db/schema';
import { dollars } from './proration';

/** A stored price with its plan: what the billing engine works with (cents). */
export interface StoredPrice {
  priceId: string;
  optionKey: string;
  emails: string;
  emailLimit: number;
  period: BillingPeriod;
  amountCents: number;
  plan: { id: string; key: Plan['key']; name: string; label: string };
}

export interface LoadedCatalogue {
  plans: Plan[];
  prices: Map<string, StoredPrice>;
}

/** Reads the whole catalogue (four plans, sixty prices): plans in PLAN_KEYS order, options by position. */
export async function loadCatalogue(db: Database): Promise<LoadedCatalogue> {
  const rows = await db
    .select({
      plan: {
        id: plans.id,
        key: plans.key,
        name: plans.name,
        label: plans.label,
        cardFeatures: plans.cardFeatures,
        features: plans.features,
      },
      price: planPrices,
    })
    .from(plans)
    .innerJoin(planPrices, eq(planPrices.planId, plans.id))
    .orderBy(asc(planPrices.position), asc(planPrices.priceId));

  const byPlan = new Map<string, { plan: (typeof rows)[number]['plan']; options: Map<string, PricingOption> }>();
  const prices = new Map<string, StoredPrice>();
  for (const { plan, price } of rows) {
    const entry = byPlan.get(plan.id) ?? { plan, options: new Map<string, PricingOption>() };
    byPlan.set(plan.id, entry);
    const variant = { price: dollars(price.amountCents), id: price.priceId };
    const option = entry.options.get(price.optionKey) ?? {
      key: price.optionKey,
      emails: price.emails,
      monthly: { price: 0, id: '' },
      semiAnnual: { price: 0, id: '' },
      yearly: { price: 0, id: '' },
    };
    option[price.period] = variant;
    entry.options.set(price.optionKey, option);
    prices.set(price.priceId, {
      priceId: price.priceId,
      optionKey: price.optionKey,
      emails: price.emails,
      emailLimit: price.emailLimit,
      period: price.period,
      amountCents: price.amountCents,
      plan: { id: plan.id, key: plan.key, name: plan.name, label: plan.label },
    });
  }

  const records: Plan[] = [...byPlan.values()]
    .sort((a, b) => PLAN_KEYS.indexOf(a.plan.key) - PLAN_KEYS.indexOf(b.plan.key))
    .map(({ plan, options }) => ({
      _id: plan.id,
      key: plan.key,
      name: plan.name,
      label: plan.label,
      features: [...plan.cardFeatures],
      grants: [...plan.features],
      // An option missing a period's price would be a broken catalogue: leave it out rather than show 0.
      pricing: [...options.values()].filter((o) => BILLING_PERIODS.every((p) => o[p].id !== '')),
    }));
  return { plans: records, prices };
}
