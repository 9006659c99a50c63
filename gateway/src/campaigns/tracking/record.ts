/**
 * What the tracking endpoints and the mail provider's webhook record (spec section 2,
 * engagement/emails/log: the delivery log's figures, recipients, events and links). Each call is one
 * transaction that writes the event, the recipient's `*_at` column, the campaign's counter and the
 * chart's minute count together, so the figures always agree with the rows.
 *
 * Counting rules:
 * - a recipient counts once per figure: the first human open sets `opened_at` and adds 1 to `opened`
 *   (the same for clicks and unsubscribes), later ones are events only;
 * - machine opens and clicks (machine.ts) are events with `machine = true` and count nowhere;
 * - a click also counts as an open when none was recorded (images blocked, the link was clicked);
 * - the chart (campaign_event_minutes) counts what the figures count, at the minute it happened.
 */
import { sql } from 'drizzle-orm';
import type { ContactStatus } from '../../contracts';
import type { Database } from '../../db/index';
import { intOf, queryRows, textOf, type Queryable, type Row } from '../../lib/raw-sql';
import { markBounced, markComplained, markResubscribed, markUnsubscribed } from '../contact-outcomes';
import { deliveryEventsCommitted, recordDeliveryEvent, type DeliveryEventType } from '../delivery-events';
import { countEvents } from '../event-minutes';

/**
 * Writes an event of `r` into the delivery events' outbox with `tx`, the transaction recording it
 * (delivery-events.ts): answers whether the listener is to be woken after the commit.
 */
function outboxed(
  db: Database,
  tx: Queryable,
  r: TrackedRecipient,
  type: DeliveryEventType,
  at: Date,
  detail: string | null,
): Promise<boolean> {
  return recordDeliveryEvent(db, tx, { type, tenantId: r.tenantId, recipientId: r.id, at, detail });
}

/** A recipient as the tracking endpoints need it. */
export interface TrackedRecipient {
  id: number;
  campaignId: string;
  tenantId: string;
  contactId: string | null;
  address: string;
  status: string;
  sentAt: Date | null;
  messageId: string | null;
}

function dateOf(row: Row, column: string): Date | null {
  const value = row[column];
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value : new Date(String(value));
}

/** One recipient by id (null when there is none). */
export async function trackedRecipient(db: Queryable, id: number): Promise<TrackedRecipient | null> {
  const [row] = await queryRows(
    db,
    sql`select id, campaign_id, tenant_id, contact_id, address, status, sent_at, message_id
          from campaign_recipients where id = ${id}`,
  );
  if (!row) return null;
  return {
    id: intOf(row, 'id'),
    campaignId: textOf(row, 'campaign_id') ?? '',
    tenantId: textOf(row, 'tenant_id') ?? '',
    contactId: textOf(row, 'contact_id'),
    address: textOf(row, 'address') ?? '',
    status: textOf(row, 'status') ?? '',
    sentAt: dateOf(row, 'sent_at'),
    messageId: textOf(row, 'message_id'),
  };
}

async function insertEvent(
  tx: Queryable,
  r: TrackedRecipient,
  type: string,
  at: Date,
  machine: boolean,
  detail: string | null,
  linkIndex: number | null = null,
): Promise<void> {
  await tx.execute(
    sql`insert into campaign_events (tenant_id, campaign_id, recipient_id, type, machine, link_index, detail, at)
        values (${r.tenantId}, ${r.campaignId}, ${r.id}, ${type}, ${machine}, ${linkIndex}, ${detail}, ${at})`,
  );
}

/** Sets the recipient's first open when none was recorded, with the campaign's figure and the chart. */
async function firstOpen(tx: Queryable, r: TrackedRecipient, at: Date): Promise<boolean> {
  const set = await queryRows(
    tx,
    sql`update campaign_recipients set opened_at = ${at} where id = ${r.id} and opened_at is null returning id`,
  );
  if (set.length === 0) return false;
  await tx.execute(sql`update campaigns set opened = opened + 1 where id = ${r.campaignId}`);
  await countEvents(tx, r.campaignId, 'opened', at);
  return true;
}

/** An open of the e-mail (the pixel was fetched). */
export async function recordOpen(db: Database, r: TrackedRecipient, at: Date, machine: boolean): Promise<void> {
  const wake = await db.transaction(async (tx) => {
    await insertEvent(tx, r, 'opened', at, machine, null);
    if (machine) return false;
    await firstOpen(tx, r, at);
    return outboxed(db, tx, r, 'opened', at, null);
  });
  if (wake) deliveryEventsCommitted(db);
}

/**
 * The number of `url` among the campaign's links (campaign_links: one row per distinct URL, numbered
 * from 0 in the order they were first clicked). Two first clicks at once may pick the same number:
 * the loser finds the winner's row, or takes the next number.
 */
async function linkIndex(tx: Queryable, campaignId: string, url: string): Promise<number> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const [found] = await queryRows(
      tx,
      sql`select index from campaign_links where campaign_id = ${campaignId} and url = ${url} limit 1`,
    );
    if (found) return intOf(found, 'index');
    const [made] = await queryRows(
      tx,
      sql`insert into campaign_links (campaign_id, index, url)
          select ${campaignId}, coalesce(max(index) + 1, 0), ${url} from campaign_links where campaign_id = ${campaignId}
          on conflict do nothing returning index`,
    );
    if (made) return intOf(made, 'index');
  }
  throw new Error('could not number a clicked link');
}

/** A click on `url` (a link that was in the recipient's e-mail: the caller verified its signature). */
export async function recordClick(
  db: Database,
  r: TrackedRecipient,
  url: string,
  at: Date,
  machine: boolean,
): Promise<void> {
  const wake = await db.transaction(async (tx) => {
    if (machine) {
      await insertEvent(tx, r, 'clicked', at, true, url);
      return false;
    }
    // One click of a recipient at a time: the unique-click check below sees the one before.
    await tx.execute(sql`select id from campaign_recipients where id = ${r.id} for update`);
    const index = await linkIndex(tx, r.campaignId, url);
    const [before] = await queryRows(
      tx,
      sql`select count(*)::int as n from (
            select 1 from campaign_events
             where recipient_id = ${r.id} and type = 'clicked' and link_index = ${index} and not machine limit 1) x`,
    );
    const unique = intOf(before ?? {}, 'n') === 0;
    await insertEvent(tx, r, 'clicked', at, false, url, index);
    await tx.execute(
      sql`update campaign_links set clicks = clicks + 1, unique_clicks = unique_clicks + ${unique ? 1 : 0}
           where campaign_id = ${r.campaignId} and index = ${index}`,
    );
    const first = await queryRows(
      tx,
      sql`update campaign_recipients set clicked_at = ${at} where id = ${r.id} and clicked_at is null returning id`,
    );
    if (first.length > 0) {
      await tx.execute(sql`update campaigns set clicked = clicked + 1 where id = ${r.campaignId}`);
      await countEvents(tx, r.campaignId, 'clicked', at);
    }
    // A click without a recorded open: the e-mail was opened (its images were blocked).
    if (await firstOpen(tx, r, at)) await insertEvent(tx, r, 'opened', at, false, 'Counted from a click');
    return outboxed(db, tx, r, 'clicked', at, url);
  });
  if (wake) deliveryEventsCommitted(db);
}

/**
 * Unsubscribes the recipient's contact (RFC 8058 one-click or the page's button). The campaign counts
 * a recipient once, however many times they unsubscribe; the contact's status follows
 * contact-outcomes.ts. Returns whether this call unsubscribed the recipient.
 */
export async function recordUnsubscribe(db: Database, r: TrackedRecipient, at: Date): Promise<boolean> {
  const first = await db.transaction(async (tx) => {
    if (r.contactId) {
      await markUnsubscribed(tx, r.tenantId, r.contactId);
    }
    const first = await queryRows(
      tx,
      sql`update campaign_recipients set unsubscribed_at = ${at}
           where id = ${r.id} and unsubscribed_at is null returning id`,
    );
    if (first.length === 0) return false;
    await insertEvent(tx, r, 'unsubscribed', at, false, null);
    await tx.execute(sql`update campaigns set unsubscribed = unsubscribed + 1 where id = ${r.campaignId}`);
    await countEvents(tx, r.campaignId, 'unsubscribed', at);
    return { wake: await outboxed(db, tx, r, 'unsubscribed', at, null) };
  });
  if (first && first.wake) deliveryEventsCommitted(db);
  return first !== false;
}

/**
 * Subscribes the contact again after an unsubscribe from this e-mail: only a contact whose status is
 * 'unsubscribed' (never a bounced or complained one). The campaign's figure keeps the unsubscribe.
 */
export async function recordResubscribe(db: Database, r: TrackedRecipient): Promise<boolean> {
  if (!r.contactId) return false;
  return markResubscribed(db, r.tenantId, r.contactId);
}

/** The contact's status now (null when the contact was deleted). */
export async function contactStatus(db: Queryable, r: TrackedRecipient): Promise<ContactStatus | null> {
  if (!r.contactId) return null;
  const [row] = await queryRows(db, sql`select status from contacts where id = ${r.contactId}`);
  const status = row ? textOf(row, 'status') : null;
  return status === 'subscribed' || status === 'unsubscribed' || status === 'bounced' || status === 'complained'
    ? status
    : null;
}

/** Whether the recipient has an event of `type` already (webhook idempotency). */
async function hasEvent(tx: Queryable, recipientId: number, type: string): Promise<boolean> {
  const rows = await queryRows(
    tx,
    sql`select 1 from campaign_events where recipient_id = ${recipientId} and type = ${type} limit 1`,
  );
  return rows.length > 0;
}

/**
 * A hard bounce reported by the mail provider: the recipient is 'bounced' (with the server's answer),
 * the contact too (unless it complained), the campaign's `bounced` figure counts it once (a recipient
 * counted as delivered, or as unconfirmed, is no longer). Nothing happens for a recipient already bounced.
 */
export async function recordHardBounce(
  db: Database,
  r: TrackedRecipient,
  at: Date,
  detail: string | null,
): Promise<boolean> {
  const bounced = await db.transaction(async (tx) => {
    const [old] = await queryRows(tx, sql`select status from campaign_recipients where id = ${r.id} for update`);
    const previous = old ? textOf(old, 'status') : null;
    if (!previous || previous === 'bounced') return false;
    await tx.execute(sql`update campaign_recipients set status = 'bounced', error = ${detail} where id = ${r.id}`);
    await tx.execute(
      sql`update campaigns set bounced = bounced + 1,
                 delivered = delivered - ${previous === 'delivered' ? 1 : 0},
                 unconfirmed = unconfirmed - ${previous === 'unconfirmed' ? 1 : 0}
           where id = ${r.campaignId}`,
    );
    if (r.contactId) await markBounced(tx, r.tenantId, [r.contactId]);
    await insertEvent(tx, r, 'bounced', at, false, detail);
    await countEvents(tx, r.campaignId, 'bounced', at);
    return { wake: await outboxed(db, tx, r, 'bounced', at, detail) };
  });
  if (bounced && bounced.wake) deliveryEventsCommitted(db);
  return bounced !== false;
}

/**
 * A soft bounce reported by the mail provider or a delivery status notification (a delay, or a
 * failure for a temporary reason): counted on the recipient (`soft_bounces`, every report), a
 * 'deferred' event once per recipient; the recipient's status and the contact are unchanged.
 */
export async function recordSoftBounce(
  db: Database,
  r: TrackedRecipient,
  at: Date,
  detail: string | null,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const counted = await queryRows(
      tx,
      sql`update campaign_recipients set soft_bounces = soft_bounces + 1 where id = ${r.id} returning id`,
    );
    if (counted.length === 0) return false;
    if (await hasEvent(tx, r.id, 'deferred')) return true;
    await insertEvent(tx, r, 'deferred', at, false, detail ? `Soft bounce: ${detail}` : 'Soft bounce');
    return true;
  });
}

/**
 * A complaint (the recipient marked the e-mail as spam): the contact is 'complained' (never sent to
 * again), the campaign's `complained` figure counts the recipient once.
 */
export async function recordComplaint(
  db: Database,
  r: TrackedRecipient,
  at: Date,
  detail: string | null,
): Promise<boolean> {
  const complained = await db.transaction(async (tx) => {
    await tx.execute(sql`select id from campaign_recipients where id = ${r.id} for update`);
    if (await hasEvent(tx, r.id, 'complained')) return false;
    if (r.contactId) await markComplained(tx, r.tenantId, r.contactId);
    await insertEvent(tx, r, 'complained', at, false, detail);
    await tx.execute(sql`update campaigns set complained = complained + 1 where id = ${r.campaignId}`);
    await countEvents(tx, r.campaignId, 'complained', at);
    return { wake: await outboxed(db, tx, r, 'complained', at, detail) };
  });
  if (complained && complained.wake) deliveryEventsCommitted(db);
  return complained !== false;
}
