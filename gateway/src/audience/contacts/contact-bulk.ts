/**
 * Bulk actions on contacts (POST /v1/contacts/bulk) and list memberships (PATCH/DELETE
 * /v1/lists/{id}/contacts). Each is ONE set-based statement over the selection, whatever its size
 * (INSERT ... SELECT ... ON CONFLICT DO NOTHING, DELETE ... WHERE, UPDATE ... WHERE): a million
 * "all that match" never travels through JavaScript.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  SELECT_A_LIST_MESSAGE,
  type AffectedResponse,
  type BulkContactsBody,
  type ContactSelection,
} from '../../contracts';
import type { Database } from '../../db/index';
import { contacts, listMembers, lists } from '../../db/schema';
import { badRequest, notFound } from '../../errors';
import { resolveContactFilter } from './contact-query';
import { changedRows, isUuid, validIds } from '../../lib/db-helpers';

const LIST_NOT_FOUND = 'List not found.';

/** "1 contact", "3 contacts". */
export function contactsWord(n: number): string {
  return `${n} ${n === 1 ? 'contact' : 'contacts'}`;
}

/** The tenant's list, or 404. */
export async function requireTenantList(db: Database, tenantId: string, listId: string): Promise<string> {
  const [list] = isUuid(listId)
    ? await db
        .select({ id: lists.id })
        .from(lists)
        .where(and(eq(lists.id, listId), eq(lists.tenantId, tenantId)))
    : [];
  if (!list) throw notFound(LIST_NOT_FOUND);
  return list.id;
}

/** The selected contacts of the tenant as a condition on `contacts` (null: nothing can match). */
async function selectionCondition(db: Database, tenantId: string, selection: ContactSelection): Promise<SQL | null> {
  if ('ids' in selection) {
    const ids = validIds(selection.ids);
    if (ids.length === 0) return null;
    return and(eq(contacts.tenantId, tenantId), inArray(contacts.id, ids)) ?? null;
  }
  return (await resolveContactFilter(db, tenantId, selection.filter)).where;
}

export function addToList(db: Database, listId: string, where: SQL): Promise<number> {
  return changedRows(
    db,
    sql`insert into ${listMembers} (list_id, contact_id)
        select ${listId}::uuid, ${contacts.id} from ${contacts} where ${where}
        on conflict do nothing`,
  );
}

export function removeFromList(db: Database, listId: string, where: SQL): Promise<number> {
  return changedRows(
    db,
    sql`delete from ${listMembers} where ${listMembers.listId} = ${listId}::uuid
        and ${listMembers.contactId} in (select ${contacts.id} from ${contacts} where ${where})`,
  );
}

/**
 * Only subscribed contacts become unsubscribed: bounced and complained say more about the address
 * (a later send must keep skipping them), and already unsubscribed ones do not count as changed.
 */
function unsubscribe(db: Database, where: SQL): Promise<number> {
  return changedRows(
    db,
    sql`update ${contacts} set status = 'unsubscribed', updated_at = now()
        where ${where} and ${contacts.status} = 'subscribed'`,
  );
}

function remove(db: Database, where: SQL): Promise<number> {
  return changedRows(db, sql`delete from ${contacts} where ${where}`);
}

export async function bulkContacts(db: Database, tenantId: string, body: BulkContactsBody): Promise<AffectedResponse> {
  const listAction = body.action === 'add_to_list' || body.action === 'remove_from_list';
  let listId: string | null = null;
  if (listAction) {
    if (!body.listId) throw badRequest(SELECT_A_LIST_MESSAGE, { listId: [SELECT_A_LIST_MESSAGE] });
    listId = await requireTenantList(db, tenantId, body.listId);
  }
  const where = await selectionCondition(db, tenantId, body.selection);
  let affected = 0;
  if (where) {
    if (body.action === 'add_to_list' && listId) affected = await addToList(db, listId, where);
    else if (body.action === 'remove_from_list' && listId) affected = await removeFromList(db, listId, where);
    else if (body.action === 'unsubscribe') affected = await unsubscribe(db, where);
    else if (body.action === 'delete') affected = await remove(db, where);
  }
  const done: Record<BulkContactsBody['action'], string> = {
    add_to_list: 'added to the list',
    remove_from_list: 'removed from the list',
    unsubscribe: 'unsubscribed',
    delete: 'deleted',
  };
  return { message: `${contactsWord(affected)} ${done[body.action]}.`, affected };
}

/** PATCH (add) and DELETE (remove) /v1/lists/{id}/contacts: ids of other tenants are ignored. */
export async function changeListMembers(
  db: Database,
  tenantId: string,
  listId: string,
  contactIds: readonly string[],
  change: 'add' | 'remove',
): Promise<AffectedResponse> {
  const id = await requireTenantList(db, tenantId, listId);
  const ids = validIds(contactIds);
  const where = and(eq(contacts.tenantId, tenantId), inArray(contacts.id, ids));
  let affected = 0;
  if (ids.length > 0 && where) {
    affected = change === 'add' ? await addToList(db, id, where) : await removeFromList(db, id, where);
  }
  const verb = change === 'add' ? 'added to the list' : 'removed from the list';
  return { message: `${contactsWord(affected)} ${verb}.`, affected };
}
