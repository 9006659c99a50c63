/** What merge tags read from the database: the tenant's custom attributes, community and postal address, a contact. */
import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/index';
import { communities, contacts, customAttributes, tenants } from '../db/schema';
import { notFound } from '../errors';
import { isUuid } from '../lib/db-helpers';
import { communityUrl } from '../onboarding/index';
import type { AttributeInfo, CommunityInfo, ContactInfo } from './merge-tags';

export interface MergeContext {
  attributes: AttributeInfo[];
  community: CommunityInfo;
}

export const CONTACT_NOT_FOUND = 'Contact not found.';

/** The tenant's attributes (oldest first) and community (its name falls back to the tenant's). */
export async function loadMergeContext(db: Database, tenantId: string, publicUrl: string): Promise<MergeContext> {
  const [attributes, [row]] = await Promise.all([
    db
      .select({
        id: customAttributes.id,
        key: customAttributes.key,
        name: customAttributes.name,
        type: customAttributes.type,
      })
      .from(customAttributes)
      .where(eq(customAttributes.tenantId, tenantId))
      .orderBy(customAttributes.createdAt, customAttributes.id),
    db
      .select({
        tenantName: tenants.name,
        postalAddress: tenants.postalAddress,
        title: communities.title,
        slug: communities.slug,
      })
      .from(tenants)
      .leftJoin(communities, eq(communities.tenantId, tenants.id))
      .where(eq(tenants.id, tenantId)),
  ]);
  return {
    attributes,
    community: {
      name: row?.title || row?.tenantName || '',
      url: row?.slug ? communityUrl(publicUrl, row.slug) : publicUrl,
      postal_address: row?.postalAddress?.trim() || null,
    },
  };
}

/** A contact of the tenant (another tenant's id or a malformed one: 404). */
export async function loadContact(db: Database, tenantId: string, contactId: string): Promise<ContactInfo> {
  const [row] = isUuid(contactId)
    ? await db
        .select({
          email: contacts.email,
          wallet: contacts.wallet,
          first_name: contacts.firstName,
          last_name: contacts.lastName,
          attributes: contacts.attributes,
        })
        .from(contacts)
        .where(and(eq(contacts.id, contactId), eq(contacts.tenantId, tenantId)))
    : [];
  if (!row) throw notFound(CONTACT_NOT_FOUND);
  return row;
}
