/**
 * Custom attributes of one tenant. Values live in `contacts.attributes` keyed by attribute ID, so
 * a rename touches no contact, and a deleted attribute's values are inert at once (no reader maps
 * an unknown id; ids are never reused).
 *
 * Deleting an attribute: the attribute row goes in the request; its values are then removed in the
 * background, in keyset batches of CONTACT_BATCH_SIZE contacts per statement, so a million
 * contacts are never locked or rewritten in one long statement and the request answers at once.
 * `updated_at` is left alone (no one edited those contacts). A cleanup cut off by a restart only
 * leaves inert values behind.
 */
import { and, asc, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import {
  MAX_ATTRIBUTES_PER_TENANT,
  RESERVED_ATTRIBUTE_KEYS,
  type CustomAttribute,
  type CustomAttributeInput,
  type CustomAttributeListQuery,
  type CustomAttributePage,
  type CustomAttributeRename,
} from '../../contracts';
import type { Database } from '../../db/index';
import { contacts, customAttributes, tenants, type CustomAttributeRow } from '../../db/schema';
import { badRequest, notFound, type FieldErrors } from '../../errors';
import { likePattern, paginate, pageWindow } from '../../lib/pagination';
import { INVALID_INPUT } from '../../errors';
import { CONTACT_BATCH_SIZE } from '../contacts/contact-query';
import { isUuid, uniqueViolation } from '../../lib/db-helpers';
import { readInIndexOrder, readThroughIndexes, storageCapabilities, yieldToRequests } from '../../db/storage';

export const DUPLICATE_ATTRIBUTE_KEY = 'An attribute with this key already exists.';
export const DUPLICATE_ATTRIBUTE_NAME = 'An attribute with this name already exists.';
export const RESERVED_KEY = 'This key is taken by a contact field. Choose another one.';
export const TOO_MANY_ATTRIBUTES = `A community can have at most ${MAX_ATTRIBUTES_PER_TENANT} custom attributes.`;
const ATTRIBUTE_NOT_FOUND = 'Custom attribute not found.';

export function toCustomAttribute(row: CustomAttributeRow, valueCount?: number): CustomAttribute {
  return {
    _id: row.id,
    name: row.name,
    key: row.key,
    type: row.type,
    created_at: row.createdAt.toISOString(),
    ...(valueCount !== undefined && { value_count: valueCount }),
  };
}

const SORT: Record<CustomAttributeListQuery['sortField'], SQL> = {
  created_at: sql`${customAttributes.createdAt}`,
  name: sql`lower(${customAttributes.name})`,
  key: sql`${customAttributes.key}`,
};

/** GET /v1/custom-attributes: search on name and key. */
export async function listAttributes(
  db: Database,
  tenantId: string,
  q: CustomAttributeListQuery,
): Promise<CustomAttributePage> {
  const conditions: SQL[] = [eq(customAttributes.tenantId, tenantId)];
  const search = q.searchString.trim();
  if (search) {
    const p = likePattern(search);
    const match = or(ilike(customAttributes.name, p), ilike(customAttributes.key, p));
    if (match) conditions.push(match);
  }
  const where = and(...conditions);
  const [total] = await db.select({ n: count() }).from(customAttributes).where(where);
  const direction = q.sortOrder === 'asc' ? asc : desc;
  const { offset, limit } = pageWindow(q.page, q.perPage);
  const rows = await db
    .select()
    .from(customAttributes)
    .where(where)
    .orderBy(direction(SORT[q.sortField]), direction(customAttributes.id))
    .limit(limit)
    .offset(offset);
  return { records: rows.map((r) => toCustomAttribute(r)), pagination: paginate(q.page, q.perPage, total?.n ?? 0) };
}

function tenantAttribute(id: string, tenantId: string): SQL | undefined {
  return and(eq(customAttributes.id, id), eq(customAttributes.tenantId, tenantId));
}

/** Contacts of the tenant holding a value for the attribute (a scan of the tenant's contacts). */
function holdsValue(row: Pick<CustomAttributeRow, 'id' | 'tenantId'>): SQL | undefined {
  return and(eq(contacts.tenantId, row.tenantId), sql`(${contacts.attributes} -> ${row.id}::text) is not null`);
}

/** GET /v1/custom-attributes/{id}, with value_count. */
export async function getAttribute(db: Database, tenantId: string, id: string): Promise<CustomAttribute> {
  const [row] = isUuid(id) ? await db.select().from(customAttributes).where(tenantAttribute(id, tenantId)) : [];
  if (!row) throw notFound(ATTRIBUTE_NOT_FOUND);
  const holding = holdsValue(row) ?? sql`false`;
  // Through the tenant's index, never a scan of the table that holds every tenant's contacts.
  const [held] = await readThroughIndexes(db, (q) => q.select({ n: count() }).from(contacts).where(holding));
  return toCustomAttribute(row, held?.n ?? 0);
}

/** Field errors from the unique indexes (a create or rename that raced another one). */
function duplicateError(error: unknown): Error | null {
  const index = uniqueViolation(error);
  if (index === 'custom_attributes_tenant_key_idx')
    return badRequest(INVALID_INPUT, { key: [DUPLICATE_ATTRIBUTE_KEY] });
  if (index === 'custom_attributes_tenant_name_idx') {
    return badRequest(INVALID_INPUT, { name: [DUPLICATE_ATTRIBUTE_NAME] });
  }
  return null;
}

async function nameTaken(db: Database, tenantId: string, name: string, exceptId: string | null): Promise<boolean> {
  const [row] = await db
    .select({ id: customAttributes.id })
    .from(customAttributes)
    .where(and(eq(customAttributes.tenantId, tenantId), sql`lower(${customAttributes.name}) = lower(${name})`))
    .limit(1);
  return row !== undefined && row.id !== exceptId;
}

/**
 * POST /v1/custom-attributes. The tenant row is locked for the transaction, so two creates of one
 * tenant cannot both pass the MAX_ATTRIBUTES_PER_TENANT check.
 */
export async function createAttribute(
  db: Database,
  tenantId: string,
  input: CustomAttributeInput,
): Promise<CustomAttribute> {
  const errors: FieldErrors = {};
  if ((RESERVED_ATTRIBUTE_KEYS as readonly string[]).includes(input.key)) errors.key = [RESERVED_KEY];
  const [sameKey] = await db
    .select({ id: customAttributes.id })
    .from(customAttributes)
    .where(and(eq(customAttributes.tenantId, tenantId), eq(customAttributes.key, input.key)));
  if (sameKey && !errors.key) errors.key = [DUPLICATE_ATTRIBUTE_KEY];
  if (await nameTaken(db, tenantId, input.name, null)) errors.name = [DUPLICATE_ATTRIBUTE_NAME];
  if (Object.keys(errors).length > 0) throw badRequest(INVALID_INPUT, errors);
  try {
    const row = await db.transaction(async (tx) => {
      await tx.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenantId)).for('update');
      const [existing] = await tx
        .select({ n: count() })
        .from(customAttributes)
        .where(eq(customAttributes.tenantId, tenantId));
      if ((existing?.n ?? 0) >= MAX_ATTRIBUTES_PER_TENANT) throw badRequest(TOO_MANY_ATTRIBUTES);
      const [created] = await tx
        .insert(customAttributes)
        .values({ tenantId, name: input.name, key: input.key, type: input.type })
        .returning();
      if (!created) throw new Error('attribute was not stored');
      return created;
    });
    return toCustomAttribute(row);
  } catch (error) {
    throw duplicateError(error) ?? error;
  }
}

/** PATCH /v1/custom-attributes/{id}: rename (key and type are fixed once created). */
export async function renameAttribute(
  db: Database,
  tenantId: string,
  id: string,
  input: CustomAttributeRename,
): Promise<CustomAttribute> {
  if (!isUuid(id)) throw notFound(ATTRIBUTE_NOT_FOUND);
  if (await nameTaken(db, tenantId, input.name, id.toLowerCase())) {
    throw badRequest(INVALID_INPUT, { name: [DUPLICATE_ATTRIBUTE_NAME] });
  }
  try {
    const [row] = await db
      .update(customAttributes)
      .set({ name: input.name })
      .where(tenantAttribute(id, tenantId))
      .returning();
    if (!row) throw notFound(ATTRIBUTE_NOT_FOUND);
    return toCustomAttribute(row);
  } catch (error) {
    throw duplicateError(error) ?? error;
  }
}

/** DELETE /v1/custom-attributes/{id}: returns the deleted row; call `removeAttributeValues` after. */
export async function deleteAttribute(db: Database, tenantId: string, id: string): Promise<CustomAttributeRow> {
  const [row] = isUuid(id) ? await db.delete(customAttributes).where(tenantAttribute(id, tenantId)).returning() : [];
  if (!row) throw notFound(ATTRIBUTE_NOT_FOUND);
  return row;
}

/**
 * Removes a deleted attribute's values from the tenant's contacts, one keyset range of
 * `batchSize` contacts per statement (oldest first), the event loop answering other requests between
 * them (no more than one statement of the database changes: db/storage.ts). Returns how many
 * contacts were changed.
 */
export async function removeAttributeValues(
  db: Database,
  attribute: Pick<CustomAttributeRow, 'id' | 'tenantId'>,
  batchSize = Math.min(CONTACT_BATCH_SIZE, storageCapabilities(db).writeRows),
): Promise<number> {
  let changed = 0;
  let cursor: { at: string; id: string } | null = null;
  for (;;) {
    await yieldToRequests();
    const after: SQL | undefined = cursor
      ? sql`(${contacts.createdAt}, ${contacts.id}) > (${cursor.at}::timestamptz, ${cursor.id}::uuid)`
      : undefined;
    // Both along the creation-time index whatever the statistics say (db/storage.ts).
    const range: { at: string; id: string }[] = await readInIndexOrder(db, (q) =>
      q
        .select({ at: sql<string>`${contacts.createdAt}::text`, id: contacts.id })
        .from(contacts)
        .where(and(eq(contacts.tenantId, attribute.tenantId), after))
        .orderBy(asc(contacts.createdAt), asc(contacts.id))
        .offset(batchSize - 1)
        .limit(1),
    );
    const end = range[0];
    const upTo: SQL = end
      ? sql`(${contacts.createdAt}, ${contacts.id}) <= (${end.at}::timestamptz, ${end.id}::uuid)`
      : sql`true`;
    const updated = await readInIndexOrder(db, (q) =>
      q
        .update(contacts)
        .set({ attributes: sql`${contacts.attributes} - ${attribute.id}::text` })
        .where(and(holdsValue(attribute), after, upTo))
        .returning({ id: contacts.id }),
    );
    changed += updated.length;
    if (!end) return changed;
    cursor = end;
  }
}
