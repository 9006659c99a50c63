/**
 * General Settings (spec section 2, account/general-settings; permission company_settings): the
 * community's name (its page's title, which the Community Page screen shows read-only, spec
 * section 2), the sender name and reply-to a new e-mail starts with, the postal address marketing
 * e-mails carry in their footer (merge tag community.postal_address), and the community's time zone.
 */
import { eq } from 'drizzle-orm';
import type { GeneralSettings, GeneralSettingsPatch } from '../contracts';
import type { Database } from '../db/index';
import { communities, tenants } from '../db/schema';
import { sessionChanged } from '../auth';
import { notFound } from '../errors';

export async function readSettings(db: Database, tenantId: string): Promise<GeneralSettings> {
  const [row] = await db
    .select({
      tenantName: tenants.name,
      title: communities.title,
      senderName: tenants.defaultSenderName,
      replyTo: tenants.defaultReplyTo,
      postalAddress: tenants.postalAddress,
      timeZone: tenants.timeZone,
    })
    .from(tenants)
    .leftJoin(communities, eq(communities.tenantId, tenants.id))
    .where(eq(tenants.id, tenantId));
  if (!row) throw notFound();
  return {
    community_name: row.title ?? row.tenantName,
    default_sender_name: row.senderName,
    default_reply_to: row.replyTo,
    postal_address: row.postalAddress,
    time_zone: row.timeZone,
  };
}

/** Blank optional text clears the setting. */
const orNull = (value: string | null) => (value?.trim() ? value.trim() : null);

export async function updateSettings(
  db: Database,
  tenantId: string,
  patch: GeneralSettingsPatch,
): Promise<GeneralSettings> {
  const set: Partial<typeof tenants.$inferInsert> = {};
  if (patch.default_sender_name !== undefined) set.defaultSenderName = orNull(patch.default_sender_name);
  if (patch.default_reply_to !== undefined) set.defaultReplyTo = patch.default_reply_to;
  if (patch.postal_address !== undefined) set.postalAddress = orNull(patch.postal_address);
  if (patch.time_zone !== undefined) set.timeZone = patch.time_zone;
  await db.transaction(async (tx) => {
    if (Object.keys(set).length > 0) await tx.update(tenants).set(set).where(eq(tenants.id, tenantId));
    if (patch.community_name !== undefined) {
      await tx.update(communities).set({ title: patch.community_name }).where(eq(communities.tenantId, tenantId));
    }
  });
  // The time zone is part of every member's session.
  if (patch.time_zone !== undefined) sessionChanged(db, `tenant:${tenantId}`);
  return readSettings(db, tenantId);
}
