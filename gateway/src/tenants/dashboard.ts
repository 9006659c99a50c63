/**
 * The super admin's Dashboard (GET /v1/admin/dashboard, spec section 2's admin sidebar): the platform at
 * a glance, every query bounded by days or counters, never by rows of contacts or events.
 *
 * - Tenants by plan: tenants not deleted. New tenants per day over 90 days (by created_at, deleted ones
 *   included: they were new then); churned per day: tenants deleted that day, and tenants whose
 *   subscription was canceled that day (its last change), deleted ones counted once.
 * - MRR: the same computation as the tenant stats (mrr.ts), over tenants not deleted.
 * - E-mails sent per day over 30 days (email_usage, every tenant).
 * - Senders: per tenant over the last 30 days with at least {@link MIN_SENT} sent, bounces and
 *   complaints (the delivery log's per-minute counters) over e-mails sent; flagged above
 *   {@link BOUNCE_LIMIT} (2 %) bounces or {@link COMPLAINT_LIMIT} (0.1 %) complaints, the levels
 *   mailbox providers act on. The 20 worst first, by how far the worse rate is over its limit.
 */
import { isNull, sql } from 'drizzle-orm';
import { PLAN_KEYS, type PlatformDashboard } from '../contracts';
import type { Database } from '../db/index';
import { tenants } from '../db/schema';
import { intOf, queryRows, textOf } from '../lib/raw-sql';
import { daySeries } from './days';
import { CURRENCY, mrrCents } from './mrr';

const DAY_MS = 86_400_000;
export const BOUNCE_LIMIT = 0.02;
export const COMPLAINT_LIMIT = 0.001;
export const MIN_SENT = 100;
export const WORST_SENDERS = 20;

const day = (d: Date) => d.toISOString().slice(0, 10);

function perDay(rows: Record<string, unknown>[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of rows) {
    const key = String(textOf(r, 'day'));
    out.set(key, (out.get(key) ?? 0) + intOf(r, 'n'));
  }
  return out;
}

export async function platformDashboard(db: Database, now: Date): Promise<PlatformDashboard> {
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  const from90 = new Date(end.getTime() - 90 * DAY_MS);
  const from30 = new Date(end.getTime() - 30 * DAY_MS);

  const planRows = await queryRows(
    db,
    sql`select p.key, p.name, count(t.id)::int as n from plans p
          left join tenants t on t.plan_id = p.id and t.deleted_at is null
         group by p.key, p.name`,
  );
  const tenantsByPlan = planRows
    .map((r) => ({
      key: String(textOf(r, 'key')) as (typeof PLAN_KEYS)[number],
      name: String(textOf(r, 'name')),
      tenants: intOf(r, 'n'),
    }))
    .sort((a, b) => PLAN_KEYS.indexOf(a.key) - PLAN_KEYS.indexOf(b.key));

  const created = await queryRows(
    db,
    sql`select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::int as n from tenants
         where created_at >= ${from90} and created_at < ${end} group by 1`,
  );
  const churned = await queryRows(
    db,
    sql`select to_char(deleted_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::int as n from tenants
         where deleted_at >= ${from90} and deleted_at < ${end} group by 1
        union all
        select to_char(s.updated_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::int as n
          from subscriptions s join tenants t on t.id = s.tenant_id and t.deleted_at is null
         where s.status = 'canceled' and s.updated_at >= ${from90} and s.updated_at < ${end} group by 1`,
  );
  const sent = await queryRows(
    db,
    sql`select to_char(day, 'YYYY-MM-DD') as day, sum(sent)::int as n from email_usage
         where day >= ${day(from30)}::date and day < ${day(end)}::date group by 1`,
  );
  const senders = await queryRows(
    db,
    sql`with sent as (
          select tenant_id, sum(sent)::int as sent from email_usage
           where day >= ${day(from30)}::date and day < ${day(end)}::date group by tenant_id having sum(sent) >= ${MIN_SENT}
        ), bad as (
          select c.tenant_id,
                 coalesce(sum(m.count) filter (where m.type = 'bounced'), 0)::int as bounced,
                 coalesce(sum(m.count) filter (where m.type = 'complained'), 0)::int as complained
            from campaign_event_minutes m join campaigns c on c.id = m.campaign_id
           where m.minute >= ${from30} and m.type in ('bounced', 'complained')
             and c.tenant_id in (select tenant_id from sent)
           group by c.tenant_id
        )
        select t.id::text as tenant_id, t.name as tenant_name, s.sent,
               coalesce(b.bounced, 0)::float8 / s.sent as bounce_rate,
               coalesce(b.complained, 0)::float8 / s.sent as complaint_rate
          from sent s join tenants t on t.id = s.tenant_id and t.deleted_at is null
          left join bad b on b.tenant_id = s.tenant_id
         order by greatest(coalesce(b.bounced, 0)::float8 / s.sent / ${BOUNCE_LIMIT},
                           coalesce(b.complained, 0)::float8 / s.sent / ${COMPLAINT_LIMIT}) desc, s.sent desc, t.id
         limit ${WORST_SENDERS}`,
  );

  return {
    tenants_by_plan: tenantsByPlan,
    new_tenants: daySeries(from90, end, perDay(created)),
    churned_tenants: daySeries(from90, end, perDay(churned)),
    mrr_cents: await mrrCents(db, isNull(tenants.deletedAt)),
    currency: CURRENCY,
    emails_sent: daySeries(from30, end, perDay(sent)),
    senders: senders.map((r) => {
      const bounce = Number(r.bounce_rate ?? 0);
      const complaint = Number(r.complaint_rate ?? 0);
      return {
        tenant_id: String(textOf(r, 'tenant_id')),
        tenant_name: String(textOf(r, 'tenant_name')),
        sent: intOf(r, 'sent'),
        bounce_rate: bounce,
        complaint_rate: complaint,
        flagged: bounce > BOUNCE_LIMIT || complaint > COMPLAINT_LIMIT,
      };
    }),
  };
}
