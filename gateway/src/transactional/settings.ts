/** A transactional template's settings (docs/transactional.md, "Settings"); a template without a row has the defaults. */
import { sql } from 'drizzle-orm';
import type { TransactionalSettings } from '../contracts';
import { queryRows, type Queryable } from '../lib/raw-sql';

/** Receipts go to everyone who asked for them, opens and clicks are tracked. */
export const DEFAULT_SETTINGS: TransactionalSettings = {
  send_to_unsubscribed: true,
  track_opens: true,
  track_clicks: true,
};

export async function readSettings(db: Queryable, templateId: string): Promise<TransactionalSettings> {
  const [row] = await queryRows(
    db,
    sql`select send_to_unsubscribed, track_opens, track_clicks from transactional_settings where template_id = ${templateId}::uuid`,
  );
  if (!row) return DEFAULT_SETTINGS;
  return {
    send_to_unsubscribed: row.send_to_unsubscribed === true,
    track_opens: row.track_opens === true,
    track_clicks: row.track_clicks === true,
  };
}

export async function writeSettings(db: Queryable, tenantId: string, templateId: string, s: TransactionalSettings) {
  await db.execute(
    sql`insert into transactional_settings (template_id, tenant_id, send_to_unsubscribed, track_opens, track_clicks)
        values (${templateId}::uuid, ${tenantId}::uuid, ${s.send_to_unsubscribed}, ${s.track_opens}, ${s.track_clicks})
        on conflict (template_id) do update set send_to_unsubscribed = excluded.send_to_unsubscribed,
               track_opens = excluded.track_opens, track_clicks = excluded.track_clicks, updated_at = now()`,
  );
}
