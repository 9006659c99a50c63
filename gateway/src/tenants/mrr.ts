/**
 * Monthly recurring revenue (the tenant stats and the platform dashboard): each active subscription's
 * price per month, in cents — monthly as is, semi-annual / 6, yearly / 12 — over the tenants `where`
 * selects (the caller's conditions on `tenants`, joined with `plans`). Prices are in US dollars.
 */
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/index';
import { planPrices, plans, subscriptions, tenants } from '../db/schema';

export const CURRENCY = 'USD';

export async function mrrCents(db: Database, where: SQL | undefined): Promise<number> {
  const [row] = await db
    .select({
      cents: sql<number>`coalesce(sum(round(${planPrices.amountCents}::numeric / case ${planPrices.period}
          when 'yearly' then 12 when 'semiAnnual' then 6 else 1 end)), 0)::int`,
    })
    .from(tenants)
    .innerJoin(plans, eq(plans.id, tenants.planId))
    .innerJoin(subscriptions, and(eq(subscriptions.tenantId, tenants.id), eq(subscriptions.status, 'active')))
    .innerJoin(planPrices, eq(planPrices.priceId, subscriptions.priceId))
    .where(where);
  return Number(row?.cents ?? 0);
}
