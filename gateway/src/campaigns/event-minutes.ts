/**
 * The delivery log's chart counts (campaign_event_minutes): every place that records campaign events
 * (the sender, tracking, the mail provider's webhook) adds them here in the same transaction, so the
 * chart of a campaign to a million people reads minutes, not events.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { CampaignEventType } from '../contracts';
import type { Queryable } from '../lib/raw-sql';

/** The minute an instant falls in. */
export function minuteOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / 60_000) * 60_000);
}

/**
 * The statement that adds `count` (an SQL expression, e.g. a count over a CTE; nothing when it is 0)
 * events of `type` at `at` to the campaign's minute counts: for one statement that records more.
 */
export function countEventsSql(campaignId: string, type: CampaignEventType, at: Date, count: SQL): SQL {
  return sql`insert into campaign_event_minutes (campaign_id, minute, type, count)
             select ${campaignId}::uuid, ${minuteOf(at)}::timestamptz, ${type}::text, n from (select (${count})::int as n) k where n > 0
             on conflict (campaign_id, minute, type) do update set count = campaign_event_minutes.count + excluded.count`;
}

/** Adds `count` events of `type` at `at` to the campaign's minute counts (call inside the recording transaction). */
export async function countEvents(
  tx: Queryable,
  campaignId: string,
  type: CampaignEventType,
  at: Date,
  count = 1,
): Promise<void> {
  if (count <= 0) return;
  await tx.execute(countEventsSql(campaignId, type, at, sql`${count}`));
}
