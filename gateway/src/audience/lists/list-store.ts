/** Contact lists of one tenant (spec section 4 calls); members are shown by GET /v1/contacts?listId=. */
import { and, asc, count, desc, eq, ilike, sql, type SQL } from 'drizzle-orm';
import type { List, ListInput, ListListQuery, ListPage } from '../../contracts';
import type { Database } from '../../db/index';
import { lists, type ListRow } from '../../db/schema';
import { badRequest, notFound } from '../../errors';
import { likePattern, paginate, pageWindow } from '../../lib/pagination';
import { INVALID_INPUT } from '../../errors';
import { isUuid, uniqueViolation } from '../../lib/db-helpers';

export const DUPLICATE_LIST_NAME = 'A list with this name already exists.';
const LIST_NOT_FOUND = 'List not found.';

export function toList(row: ListRow): List {
  return {
    _id: row.id,
    name: row.name,
    description: row.description,
    autoimport: row.autoimport,
    community_id: row.communityId,
    member_count: row.memberCount,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const SORT: Record<ListListQuery['sortField'], SQL> = {
  created_at: sql`${lists.createdAt}`,
  name: sql`lower(${lists.name})`,
  member_count: sql`${lists.memberCount}`,
};

/** GET /v1/lists: search on the name (anywhere in it), sorted, paged; perPage 1000 is the all-lists fetch. */
export async function listLists(db: Database, tenantId: string, q: ListListQuery): Promise<ListPage> {
  const conditions: SQL[] = [eq(lists.tenantId, tenantId)];
  const search = q.searchString.trim();
  if (search) conditions.push(ilike(lists.name, likePattern(search)));
  const where = and(...conditions);
  const [total] = await db.select({ n: count() }).from(lists).where(where);
  const direction = q.sortOrder === 'asc' ? asc : desc;
  const { offset, limit } = pageWindow(q.page, q.perPage);
  const rows = await db
    .select()
    .from(lists)
    .where(where)
    .orderBy(direction(SORT[q.sortField]), direction(lists.id))
    .limit(limit)
    .offset(offset);
  return { records: rows.map(toList), pagination: paginate(q.page, q.perPage, total?.n ?? 0) };
}

function tenantList(id: string, tenantId: string): SQL | undefined {
  return and(eq(lists.id, id), eq(lists.tenantId, tenantId));
}

export async function getList(db: Database, tenantId: string, id: string): Promise<List> {
  const [row] = isUuid(id) ? await db.select().from(lists).where(tenantList(id, tenantId)) : [];
  if (!row) throw notFound(LIST_NOT_FOUND);
  return toList(row);
}

async function checkNameFree(db: Database, tenantId: string, name: string, exceptId: string | null): Promise<void> {
  const [row] = await db
    .select({ id: lists.id })
    .from(lists)
    .where(and(eq(lists.tenantId, tenantId), sql`lower(${lists.name}) = lower(${name})`))
    .limit(1);
  if (row && row.id !== exceptId) throw badRequest(INVALID_INPUT, { name: [DUPLICATE_LIST_NAME] });
}

function duplicateName(error: unknown): Error | null {
  return uniqueViolation(error) === 'lists_tenant_name_idx'
    ? badRequest(INVALID_INPUT, { name: [DUPLICATE_LIST_NAME] })
    : null;
}

export async function createList(db: Database, tenantId: string, input: ListInput): Promise<List> {
  await checkNameFree(db, tenantId, input.name, null);
  try {
    const [row] = await db
      .insert(lists)
      .values({
        tenantId,
        name: input.name,
        description: input.description ?? '',
        autoimport: input.autoimport ?? false,
      })
      .returning();
    if (!row) throw new Error('list was not stored');
    return toList(row);
  } catch (error) {
    throw duplicateName(error) ?? error;
  }
}

export async function updateList(db: Database, tenantId: string, id: string, input: Partial<ListInput>): Promise<List> {
  if (!isUuid(id)) throw notFound(LIST_NOT_FOUND);
  if (input.name !== undefined) await checkNameFree(db, tenantId, input.name, id.toLowerCase());
  try {
    const [row] = await db
      .update(lists)
      .set({
        ...(input.name !== undefined && { name: input.name }),
        ...(input.description !== undefined && { description: input.description }),
        ...(input.autoimport !== undefined && { autoimport: input.autoimport }),
        updatedAt: sql`now()`,
      })
      .where(tenantList(id, tenantId))
      .returning();
    if (!row) throw notFound(LIST_NOT_FOUND);
    return toList(row);
  } catch (error) {
    throw duplicateName(error) ?? error;
  }
}

/** Deleting a list removes its memberships (the contacts stay). */
export async function deleteList(db: Database, tenantId: string, id: string): Promise<void> {
  const deleted = isUuid(id) ? await db.delete(lists).where(tenantList(id, tenantId)).returning({ id: lists.id }) : [];
  if (deleted.length === 0) throw notFound(LIST_NOT_FOUND);
}
