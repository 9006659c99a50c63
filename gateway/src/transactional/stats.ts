/**
 * The Transactional E-mails grid (spec section 4's list behaviour): the tenant's transactional
 * templates with their figures, read from the per-day counts (at most 30 rows a template) and the
 * carriers' counters, never from the messages.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/index';
import { campaignStats } from '../campaigns/index';
import type {
  CampaignStats,
  TransactionalAdminOverview,
  TransactionalTemplatePage,
  TransactionalTemplateQuery,
} from '../contracts';
import { likePattern, paginate, pageWindow } from '../lib/pagination';
import { intOf, queryRows, textOf, type Row } from '../lib/raw-sql';

const iso = (row: Row, column: string) => {
  const v = row[column];
  if (v === null || v === undefined) return null;
  return (v instanceof Date ? v : new Date(String(v))).toISOString();
};

const COUNTERS = [
  'recipients',
  'sent',
  'delivered',
  'bounced',
  'failed',
  'unconfirmed',
  'opened',
  'clicked',
  'unsubscribed',
  'complained',
] as const;

const SORTS = {
  name: sql`lower(t.name)`,
  updated_at: sql`t.updated_at`,
  last_sent_at: sql`last_sent_at`,
} as const;

export async function listTransactionalTemplates(
  db: Database,
  tenantId: string,
  q: TransactionalTemplateQuery,
): Promise<TransactionalTemplatePage> {
  const search = q.searchString.trim();
  const where = sql`t.tenant_id = ${tenantId}::uuid and t.kind = 'transactional'
                    ${search ? sql`and t.name ilike ${likePattern(search)}` : sql``}`;
  const { offset, limit } = pageWindow(q.page, q.perPage);
  const dir = sql.raw(q.sortOrder === 'asc' ? 'asc nulls first' : 'desc nulls last');
  const [total] = await queryRows(db, sql`select count(*)::int as n from templates t where ${where}`);
  const rows = await queryRows(
    db,
    sql`select t.id::text, t.name, t.updated_at,
               (select coalesce(sum(d.sent), 0)::int from transactional_days d
                 where d.template_id = t.id and d.day > current_date - 30) as sent_30_days,
               (select max(d.last_sent_at) from transactional_days d where d.template_id = t.id and d.sent > 0) as last_sent_at,
               k.sent, k.delivered, k.bounced
          from templates t
          left join lateral (select coalesce(sum(c.sent), 0)::int as sent, coalesce(sum(c.delivered), 0)::int as delivered,
                                    coalesce(sum(c.bounced), 0)::int as bounced
                               from transactional_carriers tc join campaigns c on c.id = tc.campaign_id
                              where tc.template_id = t.id) k on true
         where ${where}
         order by ${SORTS[q.sortField]} ${dir}, t.id
         limit ${limit} offset ${offset}`,
  );
  const count = total ? intOf(total, 'n') : 0;
  return {
    records: rows.map((r) => {
      const sent = intOf(r, 'sent');
      return {
        _id: textOf(r, 'id') ?? '',
        name: textOf(r, 'name') ?? '',
        sent_30_days: intOf(r, 'sent_30_days'),
        delivery_rate: sent > 0 ? intOf(r, 'delivered') / sent : null,
        bounce_rate: sent > 0 ? intOf(r, 'bounced') / sent : null,
        last_sent_at: iso(r, 'last_sent_at'),
        updated_at: iso(r, 'updated_at') ?? '',
      };
    }),
    pagination: paginate(q.page, q.perPage, count),
  };
}

/** A template's figures: its carriers' counters summed (one row per sender it used). */
export async function templateStats(db: Database, templateId: string): Promise<CampaignStats> {
  const [row] = await queryRows(
    db,
    sql`select ${sql.join(
      COUNTERS.map((c) => sql`coalesce(sum(c.${sql.raw(c)}), 0)::int as ${sql.raw(c)}`),
      sql`, `,
    )}
          from transactional_carriers tc join campaigns c on c.id = tc.campaign_id
         where tc.template_id = ${templateId}::uuid`,
  );
  return campaignStats(row ?? {});
}

/** Tenants with transactional sends in the last 30 days, most failing first (at most ADMIN_TENANTS). */
export const ADMIN_TENANTS = 100;

export async function adminOverview(db: Database): Promise<TransactionalAdminOverview> {
  const rows = await queryRows(
    db,
    sql`select d.tenant_id::text, tn.name, sum(d.sent)::int as sent, sum(d.failed)::int as failed, sum(d.bounced)::int as bounced
          from transactional_days d join tenants tn on tn.id = d.tenant_id
         where d.day > current_date - 30
         group by d.tenant_id, tn.name
         order by sum(d.failed) + sum(d.bounced) desc, sum(d.sent) desc
         limit ${ADMIN_TENANTS}`,
  );
  return {
    records: rows.map((r) => ({
      tenant_id: textOf(r, 'tenant_id') ?? '',
      tenant_name: textOf(r, 'name') ?? '',
      sent_30_days: intOf(r, 'sent'),
      failed: intOf(r, 'failed'),
      bounced: intOf(r, 'bounced'),
    })),
  };
}
