/** Contacts of one tenant: read one, create, edit, delete (the grid itself is contact-query.ts). */
import { and, eq, inArray, ne, notInArray, sql, type SQL } from 'drizzle-orm';
import type { Contact, ContactInput, ContactListQuery, ContactPage } from '../../contracts';
import type { Database } from '../../db/index';
import { contacts, listMembers, lists, type CustomAttributeRow } from '../../db/schema';
import { badRequest, notFound, type FieldErrors } from '../../errors';
import { paginate } from '../../lib/pagination';
import { checkIdentity, parseContactInput, type ContactValues } from './contact-input';
import { INVALID_INPUT } from '../../errors';
import { contactPage, resolveContactFilter } from './contact-query';
import { tenantAttributes, toContacts } from './contact-wire';
import { foreignKeyViolation, isUuid, uniqueViolation, validIds } from '../../lib/db-helpers';
import { requireContactRoom } from './contact-limit';

export const DUPLICATE_EMAIL = 'A contact with this e-mail already exists.';
export const DUPLICATE_WALLET = 'A contact with this wallet already exists.';
export const UNKNOWN_LISTS = 'Choose lists that exist in this community.';

const CONTACT_NOT_FOUND = 'Contact not found.';

/** The grid: one page of the tenant's contacts matching the query, with the spec's pagination. */
export async function listContacts(db: Database, tenantId: string, q: ContactListQuery): Promise<ContactPage> {
  const scope = await resolveContactFilter(db, tenantId, q);
  const { rows, count } = await contactPage(db, scope, q);
  return {
    records: await toContacts(db, rows, scope.attributes),
    pagination: paginate(q.page, q.perPage, count),
  };
}

export async function getContact(db: Database, tenantId: string, id: string): Promise<Contact> {
  const [row] = isUuid(id)
    ? await db
        .select()
        .from(contacts)
        .where(and(eq(contacts.id, id), eq(contacts.tenantId, tenantId)))
    : [];
  if (!row) throw notFound(CONTACT_NOT_FOUND);
  const [contact] = await toContacts(db, [row], await tenantAttributes(db, tenantId));
  if (!contact) throw notFound(CONTACT_NOT_FOUND);
  return contact;
}

/** The given list ids, each checked to be one of the tenant's lists (field error `lists` otherwise). */
async function tenantListIds(
  db: Database,
  tenantId: string,
  ids: readonly string[],
  errors: FieldErrors,
): Promise<string[]> {
  const wanted = validIds(ids);
  if (wanted.length !== new Set(ids.map((id) => id.toLowerCase())).size) {
    errors.lists = [UNKNOWN_LISTS];
    return [];
  }
  if (wanted.length === 0) return [];
  const found = await db
    .select({ id: lists.id })
    .from(lists)
    .where(and(eq(lists.tenantId, tenantId), inArray(lists.id, wanted)));
  if (found.length !== wanted.length) errors.lists = [UNKNOWN_LISTS];
  return wanted;
}

/** Field errors for an e-mail or wallet another contact of the tenant already has. */
async function checkUnique(
  db: Database,
  tenantId: string,
  values: Pick<ContactValues, 'email' | 'wallet'>,
  exceptId: string | null,
  errors: FieldErrors,
): Promise<void> {
  const taken = async (expression: SQL, value: string) => {
    const conditions = [eq(contacts.tenantId, tenantId), sql`${expression} = lower(${value})`];
    if (exceptId) conditions.push(ne(contacts.id, exceptId));
    const [row] = await db
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(...conditions))
      .limit(1);
    return row !== undefined;
  };
  if (values.email && !errors.email && (await taken(sql`lower(${contacts.email}) collate "C"`, values.email))) {
    errors.email = [DUPLICATE_EMAIL];
  }
  if (values.wallet && !errors.wallet && (await taken(sql`lower(${contacts.wallet}) collate "C"`, values.wallet))) {
    errors.wallet = [DUPLICATE_WALLET];
  }
}

/** A unique or foreign-key violation from a write that raced another one, as the field error it means. */
function raceError(error: unknown): Error | null {
  const index = uniqueViolation(error);
  if (index === 'contacts_tenant_email_idx') return badRequest(INVALID_INPUT, { email: [DUPLICATE_EMAIL] });
  if (index === 'contacts_tenant_wallet_idx') return badRequest(INVALID_INPUT, { wallet: [DUPLICATE_WALLET] });
  if (foreignKeyViolation(error)) return badRequest(INVALID_INPUT, { lists: [UNKNOWN_LISTS] });
  return null;
}

interface CheckedInput {
  values: ContactValues;
  listIds: string[] | undefined;
  attributes: CustomAttributeRow[];
}

async function checkInput(
  db: Database,
  tenantId: string,
  input: ContactInput,
  current: { id: string; email: string | null; wallet: string | null } | null,
): Promise<CheckedInput> {
  const attributes = await tenantAttributes(db, tenantId);
  const { values, errors } = parseContactInput(input, attributes);
  checkIdentity(values, current, errors);
  const listIds = input.lists === undefined ? undefined : await tenantListIds(db, tenantId, input.lists, errors);
  await checkUnique(db, tenantId, values, current?.id ?? null, errors);
  if (Object.keys(errors).length > 0) throw badRequest(INVALID_INPUT, errors);
  return { values, listIds, attributes };
}

/** POST /v1/contacts: source is set by the server ('manual' from the console). */
export async function createContact(db: Database, tenantId: string, input: ContactInput): Promise<Contact> {
  const { values, listIds, attributes } = await checkInput(db, tenantId, input, null);
  await requireContactRoom(db, tenantId, 1);
  let id: string;
  try {
    id = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(contacts)
        .values({
          tenantId,
          email: values.email ?? null,
          wallet: values.wallet ?? null,
          firstName: values.firstName ?? '',
          lastName: values.lastName ?? '',
          status: values.status ?? 'subscribed',
          source: 'manual',
          attributes: values.setAttributes,
        })
        .returning({ id: contacts.id });
      if (!row) throw new Error('contact was not stored');
      if (listIds && listIds.length > 0) {
        await tx.insert(listMembers).values(listIds.map((listId) => ({ listId, contactId: row.id })));
      }
      return row.id;
    });
  } catch (error) {
    throw raceError(error) ?? error;
  }
  return getContactWith(db, tenantId, id, attributes);
}

async function getContactWith(
  db: Database,
  tenantId: string,
  id: string,
  attributes: readonly CustomAttributeRow[],
): Promise<Contact> {
  const rows = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.id, id), eq(contacts.tenantId, tenantId)));
  const [contact] = await toContacts(db, rows, attributes);
  if (!contact) throw notFound(CONTACT_NOT_FOUND);
  return contact;
}

/** `attributes || set - cleared...`: other values stay as they are. */
function mergedAttributes(values: ContactValues): SQL {
  let merged = sql`(${contacts.attributes} || ${JSON.stringify(values.setAttributes)}::jsonb)`;
  for (const id of values.clearAttributes) merged = sql`(${merged} - ${id}::text)`;
  return merged;
}

/** PATCH /v1/contacts/{id}: only the given fields change; `lists` replaces the memberships. */
export async function updateContact(db: Database, tenantId: string, id: string, input: ContactInput): Promise<Contact> {
  const [current] = isUuid(id)
    ? await db
        .select({ id: contacts.id, email: contacts.email, wallet: contacts.wallet })
        .from(contacts)
        .where(and(eq(contacts.id, id), eq(contacts.tenantId, tenantId)))
    : [];
  if (!current) throw notFound(CONTACT_NOT_FOUND);
  const { values, listIds, attributes } = await checkInput(db, tenantId, input, current);
  try {
    await db.transaction(async (tx) => {
      const [row] = await tx
        .update(contacts)
        .set({
          ...(values.email !== undefined && { email: values.email }),
          ...(values.wallet !== undefined && { wallet: values.wallet }),
          ...(values.firstName !== undefined && { firstName: values.firstName }),
          ...(values.lastName !== undefined && { lastName: values.lastName }),
          ...(values.status !== undefined && { status: values.status }),
          attributes: mergedAttributes(values),
          updatedAt: sql`now()`,
        })
        .where(and(eq(contacts.id, id), eq(contacts.tenantId, tenantId)))
        .returning({ id: contacts.id });
      if (!row) throw notFound(CONTACT_NOT_FOUND);
      if (listIds === undefined) return;
      await tx
        .delete(listMembers)
        .where(
          listIds.length > 0
            ? and(eq(listMembers.contactId, id), notInArray(listMembers.listId, listIds))
            : eq(listMembers.contactId, id),
        );
      if (listIds.length > 0) {
        await tx
          .insert(listMembers)
          .values(listIds.map((listId) => ({ listId, contactId: id })))
          .onConflictDoNothing();
      }
    });
  } catch (error) {
    throw raceError(error) ?? error;
  }
  return getContactWith(db, tenantId, id, attributes);
}

export async function deleteContact(db: Database, tenantId: string, id: string): Promise<void> {
  const deleted = isUuid(id)
    ? await db
        .delete(contacts)
        .where(and(eq(contacts.id, id), eq(contacts.tenantId, tenantId)))
        .returning({ id: contacts.id })
    : [];
  if (deleted.length === 0) throw notFound(CONTACT_NOT_FOUND);
}
