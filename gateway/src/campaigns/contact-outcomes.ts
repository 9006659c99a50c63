/**
 * What a delivery event does to the contact (spec section 2, engagement/emails: a contact that bounced,
 * complained or unsubscribed is left out of later sends). One place for the rule, whether the event
 * comes from the SMTP answer at send time (sender/send-job.ts) or from the mail provider's webhook and
 * the unsubscribe endpoints (tracking/record.ts). Statuses only get stronger:
 *
 *   subscribed → unsubscribed → bounced → complained
 *
 * - a hard bounce makes a subscribed or unsubscribed contact 'bounced' (the address does not take mail,
 *   whatever the person chose); a complained contact stays complained;
 * - a complaint makes any contact 'complained' (never written to again);
 * - an unsubscribe changes only a subscribed contact; a resubscribe only an unsubscribed one.
 */
import { sql } from 'drizzle-orm';
import type { Queryable } from '../lib/raw-sql';
import { queryRows } from '../lib/raw-sql';

function ids(contactIds: readonly string[]) {
  return sql.join(
    contactIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
}

/** Hard bounces: these contacts of the tenant become 'bounced' (unless they complained). */
export async function markBounced(tx: Queryable, tenantId: string, contactIds: readonly string[]): Promise<void> {
  if (contactIds.length === 0) return;
  await tx.execute(
    sql`update contacts set status = 'bounced', updated_at = now()
         where tenant_id = ${tenantId}::uuid and status in ('subscribed', 'unsubscribed') and id in (${ids(contactIds)})`,
  );
}

/** A complaint: the contact becomes 'complained'. */
export async function markComplained(tx: Queryable, tenantId: string, contactId: string): Promise<void> {
  await tx.execute(
    sql`update contacts set status = 'complained', updated_at = now()
         where id = ${contactId}::uuid and tenant_id = ${tenantId}::uuid and status <> 'complained'`,
  );
}

/** An unsubscribe: a subscribed contact becomes 'unsubscribed'. */
export async function markUnsubscribed(tx: Queryable, tenantId: string, contactId: string): Promise<void> {
  await tx.execute(
    sql`update contacts set status = 'unsubscribed', updated_at = now()
         where id = ${contactId}::uuid and tenant_id = ${tenantId}::uuid and status = 'subscribed'`,
  );
}

/** A resubscribe: an unsubscribed contact becomes 'subscribed' again; true when it did. */
export async function markResubscribed(tx: Queryable, tenantId: string, contactId: string): Promise<boolean> {
  const rows = await queryRows(
    tx,
    sql`update contacts set status = 'subscribed', updated_at = now()
         where id = ${contactId}::uuid and tenant_id = ${tenantId}::uuid and status = 'unsubscribed' returning id`,
  );
  return rows.length > 0;
}
