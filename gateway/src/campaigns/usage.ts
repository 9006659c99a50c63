/**
 * Plan usage (spec section 3: a plan's pricing option has an e-mail volume; the tenant's
 * `last_warning_sent_date` and `last_limit_sent_date`): e-mails sent in the current billing period
 * against the volume of the tenant's current pricing option.
 *
 * - The period and the volume are the tenant's subscription's (local billing). A tenant without a
 *   subscription (no billing customer, e.g. the seeded Basic Guild) gets its plan's smallest monthly
 *   option and the calendar month (UTC) as its period: our choice, so every tenant has a limit.
 * - Sent e-mails are counted per UTC day in `email_usage`, in the transaction that marks recipients
 *   sent (`recordSentSql`); a period's usage is the sum of its days. A period that starts mid-day counts
 *   that whole day: at most one day's sends are attributed to the period they straddle.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { EmailUsage } from '../contracts';
import type { Database } from '../db/index';
import { campaigns } from '../db/schema';
import { formatDots } from '@console/shared/format';
import { intOf, queryRows, textOf, type Queryable } from '../lib/raw-sql';
import { countAudience } from './audience';

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

/**
 * The tenant's e-mail volume per billing period: the platform admin's override (tenant settings) when
 * set, else the volume of its subscription's price, else its plan's smallest monthly option. The one
 * place that says which volume counts (sending limits, usage, the 80 % and 100 % notices, the admin grid).
 */
function effectiveVolumeSql(): SQL {
  return sql`coalesce(t.email_volume_override, sp.email_limit, (
            select p.email_limit from plan_prices p
             where p.plan_id = t.plan_id and p.period = 'monthly'
             order by p.position limit 1), 0)::int`;
}

/** The tenant's current period and volume, and what it has sent in it. */
export async function emailAllowance(db: Queryable, tenantId: string, now: Date): Promise<EmailAllowance> {
  const found = (await emailAllowances(db, [tenantId], now)).get(tenantId);
  const month = calendarMonth(now);
  return found ?? { periodStart: month.start, periodEnd: month.end, limit: 0, used: 0 };
}

/**
 * {@link emailAllowance} of several tenants in one query (a page of the admin grid): at most as many
 * rows as ids, each with its period's usage summed over at most 366 days.
 */
export async function emailAllowances(
  db: Queryable,
  tenantIds: readonly string[],
  now: Date,
): Promise<Map<string, EmailAllowance>> {
  const out = new Map<string, EmailAllowance>();
  if (tenantIds.length === 0) return out;
  const month = calendarMonth(now);
  const ids = sql.join(
    tenantIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const rows = await queryRows(
    db,
    sql`select t.id::text as id, ${effectiveVolumeSql()} as "limit",
               (extract(epoch from b.period_start) * 1000)::float8 as period_start,
               (extract(epoch from b.period_end) * 1000)::float8 as period_end,
               (select coalesce(sum(u.sent), 0) from email_usage u
                 where u.tenant_id = t.id
                   and u.day >= (b.period_start at time zone 'UTC')::date
                   and u.day < (b.period_end at time zone 'UTC')::date)::int as used
          from tenants t
          left join subscriptions s on s.tenant_id = t.id and s.status = 'active'
                                   and s.period_start <= ${now} and s.period_end > ${now}
          left join plan_prices sp on sp.price_id = s.price_id
          cross join lateral (
            select coalesce(s.period_start, ${month.start}::timestamptz) as period_start,
                   coalesce(s.period_end, ${month.end}::timestamptz) as period_end
          ) b
         where t.id in (${ids})`,
  );
  for (const row of rows) {
    out.set(String(textOf(row, 'id')), {
      periodStart: new Date(intOf(row, 'period_start')),
      periodEnd: new Date(intOf(row, 'period_end')),
      limit: intOf(row, 'limit'),
      used: intOf(row, 'used'),
    });
  }
  return out;
}

/**
 * E-mails a tenant (the row `tenants`) sent in its current period, as an SQL expression for ordering
 * a list of tenants by usage (the admin grid's sort): the same period as {@link emailAllowances}.
 */
export function periodSentSql(tenantId: SQL, now: Date): SQL {
  const month = calendarMonth(now);
  return sql`(select coalesce(sum(u.sent), 0)::int from email_usage u
     cross join lateral (
       select coalesce(max(s.period_start), ${month.start}::timestamptz) as ps,
              coalesce(max(s.period_end), ${month.end}::timestamptz) as pe
         from subscriptions s
        where s.tenant_id = ${tenantId} and s.status = 'active' and s.period_start <= ${now} and s.period_end > ${now}
     ) b
     where u.tenant_id = ${tenantId} and u.day >= (b.ps at time zone 'UTC')::date and u.day < (b.pe at time zone 'UTC')::date)`;
}

/** E-mails the tenant sent on the days from `start` up to `end` (a billing period). */
export async function emailsSentBetween(db: Queryable, tenantId: string, start: Date, end: Date): Promise<number> {
  const [usage] = await queryRows(
    db,
    sql`select coalesce(sum(sent), 0)::int as used from email_usage
         where tenant_id = ${tenantId} and day >= ${day(start)} and day < ${day(end)}`,
  );
  return usage ? intOf(usage, 'used') : 0;
}

export function recordSentSql(tenantId: string, count: SQL, at: Date): SQL {
  return sql`insert into email_usage (tenant_id, day, sent)
             select ${tenantId}::uuid, ${day(at)}::date, n from (select (${count})::int as n) k where n > 0
             on conflict (tenant_id, day) do update set sent = email_usage.sent + excluded.sent`;
}

// ---------------------------------------------------------------------------------------------
// Reserved volume and the refusal of a send that would exceed the plan
// ---------------------------------------------------------------------------------------------

/**
 * E-mails reserved by the tenant's campaigns that are sending or paused (spec section 3 usage): their
 * recipients not yet sent, and for a campaign whose audience is not taken yet (it started moments
 * ago) the people it reaches. `exceptCampaignId` leaves one campaign out (the one being checked).
 *
 * Read from the campaign's counters, never by counting its rows (a page costs the same at a million
 * recipients): `recipients − sent − failed`. `sent` counts the rows handed over and not taken back
 * (a deferred message leaves it and is reserved again until it is sent), `failed` the ones given up.
 * A recipient refused at RCPT time (an early hard bounce) stays reserved until the campaign ends: the
 * reservation errs on the safe side by those few.
 */
export async function reservedEmails(
  db: Database,
  tenantId: string,
  walletMailDomain: string | null,
  exceptCampaignId: string | null = null,
): Promise<number> {
  const running = await db
    .select({
      id: campaigns.id,
      audience: campaigns.audience,
      takenAt: campaigns.audienceTakenAt,
      unsent: sql<number>`greatest(0, ${campaigns.recipients} - ${campaigns.sent} - ${campaigns.failed})::int`,
    })
    .from(campaigns)
    .where(and(eq(campaigns.tenantId, tenantId), inArray(campaigns.status, ['sending', 'paused'])));
  const others = running.filter((c) => c.id !== exceptCampaignId);
  let reserved = 0;
  for (const c of others.filter((o) => o.takenAt !== null)) reserved += Number(c.unsent);
  for (const c of others.filter((o) => o.takenAt === null)) {
    reserved += (await countAudience(db, tenantId, c.audience, walletMailDomain)).reachable;
  }
  return reserved;
}

/**
 * The 402 message of a send refused for volume, or null when `needed` fits in what is left:
 * 'This e-mail would go to 12.500 people, 2.500 more than the 10.000 e-mails left in your plan
 * this period. Upgrade your plan to send it.'
 */
export function volumeRefusal(needed: number, left: number): string | null {
  const remaining = Math.max(0, left);
  if (needed <= remaining) return null;
  const people = needed === 1 ? '1 person' : `${formatDots(needed)} people`;
  const emails = remaining === 1 ? '1 e-mail' : `${formatDots(remaining)} e-mails`;
  return (
    `This e-mail would go to ${people}, ${formatDots(needed - remaining)} more than the ${emails} ` +
    'left in your plan this period. Upgrade your plan to send it.'
  );
}

/** GET /v1/usage: the current period's usage, what running campaigns reserve, the limit and the warning mark. */
export async function emailUsageOf(
  db: Database,
  tenantId: string,
  walletMailDomain: string | null,
  now: Date,
): Promise<EmailUsage> {
  const allowance = await emailAllowance(db, tenantId, now);
  return {
    period_start: allowance.periodStart.toISOString(),
    period_end: allowance.periodEnd.toISOString(),
    sent: allowance.used,
    reserved: await reservedEmails(db, tenantId, walletMailDomain),
    limit: allowance.limit,
    warning_at: Math.ceil(allowance.limit * USAGE_WARNING_SHARE),
  };
}
