/**
 * Campaigns with recipients for the tracking and delivery log suites, inserted directly into the
 * tables (as the sender would leave them), so these suites do not depend on compose or sending.
 */
import { sql } from 'drizzle-orm';
import type { RecipientChannel, RecipientStatus, UtmParameters } from '../../contracts';
import type { Database } from '../../db/index';
import { intOf, queryRows, textOf } from '../../lib/raw-sql';

export interface CampaignFixture {
  name?: string;
  templateId?: string | null;
  templateVersion?: number | null;
  trackClicks?: boolean;
  utm?: Partial<UtmParameters>;
}

/** A campaign that is sending (started an hour ago). */
export async function insertCampaign(db: Database, tenantId: string, c: CampaignFixture = {}): Promise<string> {
  const utm = { source: '', medium: '', campaign: '', term: '', content: '', ...c.utm };
  const [row] = await queryRows(
    db,
    sql`insert into campaigns (tenant_id, name, subject, status, template_id, template_version, track_clicks, utm, started_at)
        values (${tenantId}, ${c.name ?? 'Fixture'}, 'Hello', 'sending', ${c.templateId ?? null},
                ${c.templateVersion ?? null}, ${c.trackClicks ?? true}, ${JSON.stringify(utm)}::jsonb,
                now() - interval '1 hour')
        returning id`,
  );
  const id = row ? textOf(row, 'id') : null;
  if (!id) throw new Error('campaign not inserted');
  return id;
}

export interface RecipientFixture {
  address: string;
  contactId?: string | null;
  status?: RecipientStatus;
  channel?: RecipientChannel;
  /** Default: an hour ago. */
  sentAt?: Date | null;
  messageId?: string | null;
  error?: string | null;
}

/** Recipients of a campaign (default: sent and delivered an hour ago); the campaign's `recipients`, `sent` and `delivered` follow. Returns their ids. */
export async function insertRecipients(
  db: Database,
  tenantId: string,
  campaignId: string,
  recipients: readonly RecipientFixture[],
): Promise<number[]> {
  const ids: number[] = [];
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (const r of recipients) {
    const status = r.status ?? 'delivered';
    const sentAt = r.sentAt === undefined ? hourAgo : r.sentAt;
    const [row] = await queryRows(
      db,
      sql`insert into campaign_recipients (campaign_id, tenant_id, contact_id, address, channel, status, attempts, sent_at,
                                           delivered_at, message_id, error)
          values (${campaignId}, ${tenantId}, ${r.contactId ?? null}, ${r.address.toLowerCase()}, ${r.channel ?? 'email'},
                  ${status}, 1, ${sentAt}, ${status === 'delivered' ? sentAt : null}, ${r.messageId ?? null}, ${r.error ?? null})
          returning id`,
    );
    if (!row) throw new Error('recipient not inserted');
    ids.push(intOf(row, 'id'));
  }
  await db.execute(
    sql`update campaigns set
          recipients = (select count(*) from campaign_recipients where campaign_id = ${campaignId}),
          sent = (select count(*) from campaign_recipients where campaign_id = ${campaignId} and sent_at is not null),
          delivered = (select count(*) from campaign_recipients where campaign_id = ${campaignId} and status = 'delivered')
        where id = ${campaignId}`,
  );
  return ids;
}

/** A contact of the tenant (status subscribed unless given). */
export async function insertContact(
  db: Database,
  tenantId: string,
  email: string,
  fields: { firstName?: string; status?: string } = {},
): Promise<string> {
  const [row] = await queryRows(
    db,
    sql`insert into contacts (tenant_id, email, first_name, status)
        values (${tenantId}, ${email}, ${fields.firstName ?? ''}, ${fields.status ?? 'subscribed'}) returning id`,
  );
  const id = row ? textOf(row, 'id') : null;
  if (!id) throw new Error('contact not inserted');
  return id;
}

/** The campaign's figures. */
export async function campaignFigures(db: Database, campaignId: string): Promise<Record<string, number>> {
  const [row] = await queryRows(
    db,
    sql`select recipients, sent, delivered, bounced, failed, opened, clicked, unsubscribed, complained
          from campaigns where id = ${campaignId}`,
  );
  if (!row) throw new Error('no campaign');
  return Object.fromEntries(Object.entries(row).map(([k]) => [k, intOf(row, k)]));
}

/** A recipient's row as the suites check it. */
export async function recipientRow(db: Database, id: number): Promise<Record<string, unknown>> {
  const [row] = await queryRows(db, sql`select * from campaign_recipients where id = ${id}`);
  if (!row) throw new Error('no recipient');
  return row;
}

/** A contact's status. */
export async function contactStatusOf(db: Database, contactId: string): Promise<string | null> {
  const [row] = await queryRows(db, sql`select status from contacts where id = ${contactId}`);
  return row ? textOf(row, 'status') : null;
}

/** A recipient's events, oldest first. */
export async function eventsOf(
  db: Database,
  recipientId: number,
): Promise<{ type: string; machine: boolean; detail: string | null }[]> {
  const rows = await queryRows(
    db,
    sql`select type, machine, detail from campaign_events where recipient_id = ${recipientId} order by id`,
  );
  return rows.map((r) => ({ type: textOf(r, 'type') ?? '', machine: r.machine === true, detail: textOf(r, 'detail') }));
}
