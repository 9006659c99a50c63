/**
 * GET /v1/tenants/stats (spec section 7): figures over exactly the tenants the same list query lists
 * on every page (the same conditions as list.ts): their number and split by plan, new tenants per day
 * over the range (all_time: the last 90 days), their contacts (counters), e-mails sent over the range
 * (all_time: ever) and their monthly recurring revenue.
 */
import { count, eq, gte, lt, and, sql } from 'drizzle-orm';
import { PLAN_KEYS, type TenantListQuery, type TenantStats } from '../contracts';
import type { Database } from '../db/index';
import { plans, tenants } from '../db/schema';
import { intOf, queryRows } from '../lib/raw-sql';
import { dateBounds } from './list-query';
import { tenantConditions } from './list';
import { CURRENCY, mrrCents } from './mrr';
import { daySeries } from './days';

const DAY_MS = 86_400_000;
/** At most this many days in a chart (a longer custom range shows its last days). */
const MAX_CHART_DAYS = 366;

const day = (d: Date) => d.toISOString().slice(0, 10);

export async function tenantStats(db: Database, q: TenantListQuery, now: Date): Promise<TenantStats> {
  const where = await tenantConditions(db, q, now);
  const matching = db
    .select({ id: tenants.id })
    .from(tenants)
    .innerJoin(plans, eq(plans.id, tenants.planId))
    .where(where);

  const allPlans = await db.select({ id: plans.id, key: plans.key, name: plans.name }).from(plans);
  allPlans.sort((a, b) => PLAN_KEYS.indexOf(a.key) - PLAN_KEYS.indexOf(b.key));
  const perPlan = await db
    .select({ key: plans.key, n: count() })
    .from(tenants)
    .innerJoin(plans, eq(plans.id, tenants.planId))
    .where(where)
    .groupBy(plans.key);
  const byPlan = allPlans.map((p) => ({
    key: p.key,
    name: p.name,
    tenants: perPlan.find((r) => r.key === p.key)?.n ?? 0,
  }));

  const bounds = dateBounds(q, now);
  const chartEnd = bounds.to ?? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  const earliest = new Date(chartEnd.getTime() - (bounds.from ? MAX_CHART_DAYS : 90) * DAY_MS);
  const chartStart = bounds.from && bounds.from > earliest ? bounds.from : earliest;
  const newPerDay = await db
    .select({ day: sql<string>`to_char(${tenants.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`, n: count() })
    .from(tenants)
    .innerJoin(plans, eq(plans.id, tenants.planId))
    .where(and(where, gte(tenants.createdAt, chartStart), lt(tenants.createdAt, chartEnd)))
    .groupBy(sql`1`);

  const [contacts] = await queryRows(
    db,
    sql`select coalesce(sum(n), 0)::bigint as n from contact_counts where tenant_id in (${matching})`,
  );
  const sentRange = sql.join(
    [
      sql`tenant_id in (${matching})`,
      ...(bounds.from ? [sql`day >= ${day(bounds.from)}::date`] : []),
      ...(bounds.to ? [sql`day < ${day(bounds.to)}::date`] : []),
    ],
    sql` and `,
  );
  const [sent] = await queryRows(
    db,
    sql`select coalesce(sum(sent), 0)::bigint as n from email_usage where ${sentRange}`,
  );

  return {
    tenants: byPlan.reduce((sum, p) => sum + p.tenants, 0),
    by_plan: byPlan,
    new_tenants: daySeries(chartStart, chartEnd, new Map(newPerDay.map((r) => [r.day, r.n]))),
    contacts: contacts ? intOf(contacts, 'n') : 0,
    emails_sent: sent ? intOf(sent, 'n') : 0,
    mrr_cents: await mrrCents(db, where),
    currency: CURRENCY,
  };
}
