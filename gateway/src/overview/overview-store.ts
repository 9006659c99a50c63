/**
 * The overview's figures (route `overview`, spec section 2), each read from a small table kept as
 * the data changes, so the page costs the same for a tenant of a hundred contacts or a million:
 * contact_days (contacts added and removed per day and source), the campaigns' own counters, and
 * the plan usage ledger.
 */
import { sql } from 'drizzle-orm';
import {
  CONTACT_SOURCES,
  OVERVIEW_CAMPAIGNS,
  OVERVIEW_DAYS,
  type ContactSource,
  type EmailUsage,
  type Overview,
} from '../contracts';
import type { Database } from '../db/index';
import { intOf, queryRows, textOf } from '../lib/raw-sql';
import { campaignStats, emailUsageOf } from '../campaigns/index';

const DAY_MS = 86_400_000;
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** Contacts per day over the last OVERVIEW_DAYS days (every day present), the total and the split by source. */
async function contactFigures(db: Database, tenantId: string, now: Date): Promise<Overview['contacts']> {
  const first = dayOf(new Date(now.getTime() - (OVERVIEW_DAYS - 1) * DAY_MS));
  // One row per source with its count now and its count before the window: bounded by sources.
  const sources = await queryRows(
    db,
    sql`select source, sum(added - removed)::int as now,
               sum(case when day < ${first} then added - removed else 0 end)::int as before
          from contact_days where tenant_id = ${tenantId} group by source`,
  );
  const days = await queryRows(
    db,
    sql`select day::text as day, sum(added)::int as added, sum(removed)::int as removed
          from contact_days where tenant_id = ${tenantId} and day >= ${first}
         group by day order by day`,
  );
  const bySource = new Map<ContactSource, number>();
  let total = 0;
  let running = 0;
  for (const row of sources) {
    const source = textOf(row, 'source') as ContactSource;
    bySource.set(source, intOf(row, 'now'));
    total += intOf(row, 'now');
    running += intOf(row, 'before');
  }
  const changes = new Map(days.map((row) => [textOf(row, 'day') ?? '', row]));
  const series: Overview['contacts']['days'] = [];
  for (let i = OVERVIEW_DAYS - 1; i >= 0; i--) {
    const day = dayOf(new Date(now.getTime() - i * DAY_MS));
    const row = changes.get(day);
    const added = row ? intOf(row, 'added') : 0;
    const removed = row ? intOf(row, 'removed') : 0;
    running += added - removed;
    series.push({ day, added, removed, total: running });
  }
  return {
    total,
    by_source: CONTACT_SOURCES.map((source) => ({ source, count: bySource.get(source) ?? 0 })),
    days: series,
  };
}

/** The last campaigns that started sending, newest first, with their figures. */
async function lastCampaigns(db: Database, tenantId: string): Promise<Overview['campaigns']> {
  const rows = await queryRows(
    db,
    sql`select * from campaigns
         where tenant_id = ${tenantId} and started_at is not null and kind = 'campaign'
         order by started_at desc limit ${OVERVIEW_CAMPAIGNS}`,
  );
  return rows.map((row) => {
    const at = row.finished_at ?? row.started_at;
    return {
      _id: textOf(row, 'id') ?? '',
      name: textOf(row, 'name') ?? '',
      status: textOf(row, 'status') ?? '',
      at: at instanceof Date ? at.toISOString() : at ? new Date(String(at)).toISOString() : null,
      stats: campaignStats(row),
    };
  });
}

export async function readOverview(
  db: Database,
  tenantId: string,
  walletMailDomain: string | null,
  now: Date,
): Promise<Overview> {
  const contacts = await contactFigures(db, tenantId, now);
  const campaigns = await lastCampaigns(db, tenantId);
  const usage: EmailUsage = await emailUsageOf(db, tenantId, walletMailDomain, now);
  return { contacts, campaigns, usage };
}
