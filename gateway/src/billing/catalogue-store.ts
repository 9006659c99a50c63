/** The plan catalogue as stored (plans + plan_prices), in the contract's shape. */
import { asc, eq, getTableName, inArray, or, sql } from 'drizzle-orm';
import {
  BILLING_PERIODS,
  type BillingPeriod,
  parseEmailVolume,
  type Plan,
  PLAN_KEYS,
  type PlanUpdate,
  type PricingOption,
  type PricingOptionUpdate,
} from '../contracts';
import { isUuid } from '../lib/db-helpers';
import { queryRows, textOf } from '../lib/raw-sql';
import type { Database } from '../db/index';
import { type PlanPriceRow, planPrices, plans, subscriptions } from '../db/schema';
import { badRequest, notFound, INVALID_INPUT } from '../errors';
import { checkPlanUpdate, type CurrentOption, type PlanUpdateContext } from './catalogue-checks';
import { dollars } from './proration';
import { sessionChanged } from '../auth';

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

/** Serialises catalogue edits (price ids are unique across plans). */
const CATALOGUE_EDIT_LOCK = 0x706c_616e; // 'plan'
const PLAN_NOT_FOUND = 'Plan not found.';

/**
 * PATCH /v1/plans/{id}: label, card features and the five options (volume, three prices and their
 * ids) in one transaction. 404 for an unknown plan; 400 with field errors when checkPlanUpdate
 * refuses. A renamed price keeps its invoices (they follow it to the new id).
 */
export async function updatePlan(db: Database, planId: string, input: PlanUpdate): Promise<Plan> {
  if (!isUuid(planId)) throw notFound(PLAN_NOT_FOUND);
  const plan = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CATALOGUE_EDIT_LOCK})`);
    const [plan] = await tx.select({ id: plans.id }).from(plans).where(eq(plans.id, planId)).for('update');
    if (!plan) throw notFound(PLAN_NOT_FOUND);
    // Locked: no subscription, invoice or checkout can start pointing at these prices until this commits.
    const rows = await tx
      .select()
      .from(planPrices)
      .where(eq(planPrices.planId, planId))
      .orderBy(asc(planPrices.position), asc(planPrices.priceId))
      .for('update');

    const context = input.pricing ? await pricingContext(tx, rows) : NO_PRICING_CONTEXT;
    const errors = checkPlanUpdate(input, context);
    if (Object.keys(errors).length > 0) throw badRequest(INVALID_INPUT, errors);

    if (input.pricing) await storePricing(tx, rows, input.pricing);
    const changes: Partial<Pick<typeof plans.$inferInsert, 'label' | 'cardFeatures'>> = {};
    if (input.label !== undefined) changes.label = input.label;
    if (input.features !== undefined) changes.cardFeatures = [...input.features];
    if (Object.keys(changes).length > 0) await tx.update(plans).set(changes).where(eq(plans.id, planId));

    const updated = (await loadCatalogue(tx)).plans.find((p) => p._id === planId);
    if (!updated) throw notFound(PLAN_NOT_FOUND);
    return updated;
  });
  sessionChanged(db, 'all');
  return plan;
}

const NO_PRICING_CONTEXT: PlanUpdateContext = { options: [], catalogueIds: new Set(), subscribedIds: new Set() };

/** What the pricing checks need: the plan's options, every price id, the subscribed ones. */
async function pricingContext(tx: Database, rows: readonly PlanPriceRow[]): Promise<PlanUpdateContext> {
  const ids = rows.map((r) => r.priceId);
  const catalogue = await tx.select({ priceId: planPrices.priceId }).from(planPrices);
  const subscribed =
    ids.length > 0
      ? await tx
          .select({ priceId: subscriptions.priceId, scheduledPriceId: subscriptions.scheduledPriceId })
          .from(subscriptions)
          .where(or(inArray(subscriptions.priceId, ids), inArray(subscriptions.scheduledPriceId, ids)))
      : [];
  return {
    options: currentOptions(rows),
    catalogueIds: new Set(catalogue.map((c) => c.priceId)),
    subscribedIds: new Set(
      subscribed.flatMap((s) => (s.scheduledPriceId ? [s.priceId, s.scheduledPriceId] : [s.priceId])),
    ),
  };
}

function currentOptions(rows: readonly PlanPriceRow[]): CurrentOption[] {
  const byKey = new Map<string, CurrentOption>();
  for (const row of rows) {
    const option = byKey.get(row.optionKey) ?? {
      key: row.optionKey,
      ids: { monthly: '', semiAnnual: '', yearly: '' },
    };
    option.ids[row.period] = row.priceId;
    byKey.set(row.optionKey, option);
  }
  return [...byKey.values()];
}

/** The columns that point at a price id (invoices, checkouts, subscriptions...), read from the catalog. */
async function priceReferences(tx: Database): Promise<{ table: string; column: string }[]> {
  const rows = await queryRows(
    tx,
    sql`
    select quote_ident(n.nspname) || '.' || quote_ident(t.relname) as table_name,
           quote_ident(a.attname) as column_name
      from pg_constraint c
      join pg_class t on t.oid = c.conrelid
      join pg_namespace n on n.oid = t.relnamespace
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any (c.conkey)
     where c.contype = 'f' and c.confrelid = ${getTableName(planPrices)}::regclass
     order by 1, 2`,
  );
  return rows.flatMap((r) => {
    const table = textOf(r, 'table_name');
    const column = textOf(r, 'column_name');
    return table && column ? [{ table, column }] : [];
  });
}

/**
 * Writes the options over the stored rows (matched by option key and period). A price whose id
 * changes is moved to a new row: the old row steps aside (its option key parked under a name no
 * option has), the new row is inserted, whatever pointed at the old id (invoices, checkouts) is
 * pointed at the new one, and the old row goes. Subscriptions never follow: checkPlanUpdate refuses
 * to rename a subscribed price.
 */
async function storePricing(tx: Database, rows: readonly PlanPriceRow[], pricing: readonly PricingOptionUpdate[]) {
  const renamed: { from: string; to: string }[] = [];
  for (const row of rows) {
    const option = pricing.find((o) => o.key === row.optionKey);
    if (!option) continue;
    const variant = option[row.period];
    const values = {
      emails: option.emails,
      emailLimit: parseEmailVolume(option.emails) ?? row.emailLimit,
      amountCents: Math.round(variant.price * 100),
    };
    if (variant.id === row.priceId) {
      await tx.update(planPrices).set(values).where(eq(planPrices.priceId, row.priceId));
      continue;
    }
    await tx
      .update(planPrices)
      .set({ optionKey: `:${row.optionKey}` })
      .where(eq(planPrices.priceId, row.priceId));
    await tx.insert(planPrices).values({ ...row, ...values, priceId: variant.id });
    renamed.push({ from: row.priceId, to: variant.id });
  }
  if (renamed.length === 0) return;
  const references = await priceReferences(tx);
  for (const { from, to } of renamed) {
    for (const { table, column } of references) {
      // Names from the catalog, quoted by quote_ident; the ids are parameters.
      await tx.execute(sql`update ${sql.raw(table)} set ${sql.raw(column)} = ${to} where ${sql.raw(column)} = ${from}`);
    }
    await tx.delete(planPrices).where(eq(planPrices.priceId, from));
  }
}
