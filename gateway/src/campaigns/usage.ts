/**
 * Plan usage (spec section 3: a plan's pricing option has an e-mail volume; the tenant's
 * `last_warning_sent_date` and `last_limit_sent_date`): e-mails sent in the current billing period
 * against the volume of the tenant's current pricing option.
 *
 * - The period and the volume are the tenant's subscription's (local billing). A tenant without a
 *   subscription (no billing customer, e.g. the seeded Basic Guild) gets its plan's smallest monthly
 *   option and the calendar month (UTC) as its period: our choice, so every tenant has a limit.
 * - Sent e-mails are counted per UTC day in `email_usage`, in the transaction that marks recipients
 *   sent (`recordSent`); a period's usage is the sum of its days. A period that starts mid-day counts
 *   that whole day: at most one day's sends are attributed to the period they straddle.
 */
import { sql } from 'drizzle-orm';
import type { EmailUsage } from '../contracts';
import { intOf, queryRows, textOf, type Queryable } from '../lib/raw-sql';

export interface EmailAllowance {
  periodStart: Date;
  periodEnd: Date;
  /** The plan's e-mail volume for the period. */
  limit: number;
  /** E-mails sent in the period so far. */
  used: number;
}

/** The share of the volume at which the owner is warned once per period. */
export const USAGE_WARNING_SHARE = 0.8;

const day = (date: Date) => date.toISOString().slice(0, 10);

/** The calendar month (UTC) around `now`. */
function calendarMonth(now: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

/** The tenant's current period and volume, and what it has sent in it. */
export async function emailAllowance(db: Queryable, tenantId: string, now: Date): Promise<EmailAllowance> {
  const [terms] = await queryRows(
    db,
    sql`select coalesce(sp.email_limit, fallback.email_limit, 0)::int as "limit",
               (extract(epoch from s.period_start) * 1000)::float8 as period_start,
               (extract(epoch from s.period_end) * 1000)::float8 as period_end
          from tenants t
          left join subscriptions s on s.tenant_id = t.id and s.status = 'active'
                                   and s.period_start <= ${now} and s.period_end > ${now}
          left join plan_prices sp on sp.price_id = s.price_id
          left join lateral (
            select p.email_limit from plan_prices p
             where p.plan_id = t.plan_id and p.period = 'monthly'
             order by p.position limit 1
          ) fallback on true
         where t.id = ${tenantId}`,
  );
  const month = calendarMonth(now);
  const subscribed = terms !== undefined && textOf(terms, 'period_start') !== null;
  const periodStart = subscribed ? new Date(intOf(terms, 'period_start')) : month.start;
  const periodEnd = subscribed ? new Date(intOf(terms, 'period_end')) : month.end;
  const [usage] = await queryRows(
    db,
    sql`select coalesce(sum(sent), 0)::int as used from email_usage
         where tenant_id = ${tenantId} and day >= ${day(periodStart)} and day < ${day(periodEnd)}`,
  );
  return {
    periodStart,
    periodEnd,
    limit: terms ? intOf(terms, 'limit') : 0,
    used: usage ? intOf(usage, 'used') : 0,
  };
}

/** Counts `count` e-mails sent at `at` (call inside the transaction that marks them sent). */
export async function recordSent(tx: Queryable, tenantId: string, count: number, at: Date): Promise<void> {
  if (count <= 0) return;
  await tx.execute(
    sql`insert into email_usage (tenant_id, day, sent) values (${tenantId}, ${day(at)}, ${count})
        on conflict (tenant_id, day) do update set sent = email_usage.sent + excluded.sent`,
  );
}

/**
 * Recipients still to be sent by the tenant's campaigns that are sending or paused: taken from the
 * remaining volume when a new send is checked, so two campaigns cannot both spend the same e-mails.
 */
export async function reservedVolume(db: Queryable, tenantId: string): Promise<number> {
  const [row] = await queryRows(
    db,
    sql`select coalesce(sum(greatest(c.recipients - c.sent - c.failed - c.bounced, 0)), 0)::int as reserved
          from campaigns c
         where c.tenant_id = ${tenantId} and c.status in ('sending', 'paused')`,
  );
  return row ? intOf(row, 'reserved') : 0;
}

/** GET /v1/usage and the overview: the period, what was sent and reserved, the limit and the warning mark. */
export async function emailUsageOf(db: Queryable, tenantId: string, now: Date): Promise<EmailUsage> {
  const allowance = await emailAllowance(db, tenantId, now);
  return {
    period_start: allowance.periodStart.toISOString(),
    period_end: allowance.periodEnd.toISOString(),
    sent: allowance.used,
    reserved: await reservedVolume(db, tenantId),
    limit: allowance.limit,
    warning_at: Math.floor(allowance.limit * USAGE_WARNING_SHARE),
  };
}
