/**
 * The delivery log's chart counts (campaign_event_minutes): every place that records campaign events
 * (the sender, tracking, the mail provider's webhook) adds them here in the same transaction, so the
 * chart of a campaign to a million people reads minutes, not events.
 */
import { sql } from 'drizzle-orm';
import type { CampaignEventType } from '../contracts';
import type { Queryable } from '../lib/raw-sql';

/** The minute an instant falls in. */
export function minuteOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / 60_000) * 60_000);
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
  await tx.execute(
    sql`insert into campaign_event_minutes (campaign_id, minute, type, count)
        values (${campaignId}, ${minuteOf(at)}, ${type}, ${count})
        on conflict (campaign_id, minute, type) do update set count = campaign_event_minutes.count + excluded.count`,
  );
}
