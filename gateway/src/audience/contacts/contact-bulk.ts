/**
 * Bulk actions on contacts (POST /v1/contacts/bulk) and list memberships (PATCH/DELETE
 * /v1/lists/{id}/contacts). Each is ONE set-based statement over the selection, whatever its size
 * (INSERT ... SELECT ... ON CONFLICT DO NOTHING, DELETE ... WHERE, UPDATE ... WHERE): a million
 * "all that match" never travels through JavaScript. Where the database takes bounded statements only
 * (db/storage.ts writeRows), one such statement per step of that many selected contacts (inSteps).
 */
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
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
import { readInIndexOrder, storageCapabilities, yieldToRequests } from '../../db/storage';

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

/**
 * Runs a set-based action on the selected contacts: in one statement where the database takes a
 * statement of any size; else one statement per step of `writeRows` selected contacts (db/storage.ts),
 * found in creation order after a keyset cursor, the event loop answering other requests in between.
 * Each step's statement is atomic; the action as a whole is not (a failure leaves the steps before it
 * done, as a retried bulk action would).
 */
async function inSteps(
  db: Database,
  tenantId: string,
  where: SQL,
  action: (where: SQL) => Promise<number>,
): Promise<number> {
  const step = storageCapabilities(db).writeRows;
  if (!Number.isFinite(step)) return action(where);
  let affected = 0;
  let cursor: { at: string; id: string } | null = null;
  for (;;) {
    const after: SQL = cursor
      ? sql`(${contacts.createdAt}, ${contacts.id}) > (${cursor.at}::timestamptz, ${cursor.id}::uuid)`
      : sql`true`;
    const ids = await stepIds(db, sql`${where} and ${after}`, step);
    const last = ids.at(-1);
    if (!last) return affected;
    // The ids drive the statement (primary-key probes): the tenant's own ids, checked again as text,
    // which no index can serve (an unanalyzed table's planner would walk a tenant_id index instead).
    const byId = sql`${contacts.id} = any(${`{${ids.map((r) => r.id).join(',')}}`}::uuid[])`;
    affected += await action(sql`${byId} and ${contacts.tenantId}::text = ${tenantId}`);
    if (ids.length < step) return affected;
    cursor = last;
    await yieldToRequests();
  }
}

/** The next `step` selected contacts in creation order, along that index whatever the statistics say. */
function stepIds(db: Database, where: SQL, step: number): Promise<{ at: string; id: string }[]> {
  return readInIndexOrder(db, (q) =>
    q
      .select({ at: sql<string>`${contacts.createdAt}::text`, id: contacts.id })
      .from(contacts)
      .where(where)
      .orderBy(asc(contacts.createdAt), asc(contacts.id))
      .limit(step),
  );
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
  const selected = await selectionCondition(db, tenantId, body.selection);
  let affected = 0;
  if (selected) {
    const act = (where: SQL): Promise<number> => {
      if (body.action === 'add_to_list' && listId) return addToList(db, listId, where);
      if (body.action === 'remove_from_list' && listId) return removeFromList(db, listId, where);
      if (body.action === 'unsubscribe') return unsubscribe(db, where);
      if (body.action === 'delete') return remove(db, where);
      return Promise.resolve(0);
    };
    // Chosen ids are bounded by the request's size; "all that match" by nothing but the tenant.
    affected = 'ids' in body.selection ? await act(selected) : await inSteps(db, tenantId, selected, act);
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
