/** Contacts as the API sends them: rows plus their list ids, attribute values keyed by attribute key. */
import { and, eq, inArray } from 'drizzle-orm';
import type { Contact } from '../../contracts';
import type { Database } from '../../db/index';
import { customAttributes, listMembers, type ContactRow, type CustomAttributeRow } from '../../db/schema';

/** The tenant's custom attributes (at most MAX_ATTRIBUTES_PER_TENANT), oldest first. */
export function tenantAttributes(db: Database, tenantId: string): Promise<CustomAttributeRow[]> {
  return db
    .select()
    .from(customAttributes)
    .where(eq(customAttributes.tenantId, tenantId))
    .orderBy(customAttributes.createdAt, customAttributes.id);
}

/** Values stored by attribute id, as the API shows them: by key, only for attributes that still exist. */
export function attributesByKey(
  stored: Record<string, unknown>,
  attributes: readonly CustomAttributeRow[],
): Contact['attributes'] {
  const out: Contact['attributes'] = {};
  for (const a of attributes) {
    const value = stored[a.id];
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out[a.key] = value;
  }
  return out;
}

export function toContact(row: ContactRow, lists: string[], attributes: readonly CustomAttributeRow[]): Contact {
  return {
    _id: row.id,
    wallet: row.wallet,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    status: row.status,
    source: row.source,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    lists,
    attributes: attributesByKey(row.attributes, attributes),
  };
}

/** Rows to wire contacts, with one query for all their list memberships. */
export async function toContacts(
  db: Database,
  rows: readonly ContactRow[],
  attributes: readonly CustomAttributeRow[],
): Promise<Contact[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const memberships = await db
    .select({ contactId: listMembers.contactId, listId: listMembers.listId })
    .from(listMembers)
    .where(and(inArray(listMembers.contactId, ids)));
  const byContact = new Map<string, string[]>();
  for (const m of memberships) {
    const lists = byContact.get(m.contactId) ?? [];
    lists.push(m.listId);
    byContact.set(m.contactId, lists);
  }
  return rows.map((r) => toContact(r, byContact.get(r.id) ?? [], attributes));
}
