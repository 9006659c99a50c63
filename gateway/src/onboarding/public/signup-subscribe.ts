/**
 * The one write of every confirmed public sign-up (e-mail link opened, wallet signature verified):
 * the contact is found or created in the tenant, subscribed (the person opted in), and added to the
 * list. Idempotent: a second run changes nothing and reports that the contact was already a member.
 */
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/index';
import { contacts, listMembers, widgets } from '../../db/schema';

export type Identity = { email: string } | { wallet: string };

export interface SubscribeTarget {
  tenantId: string;
  listId: string;
  /** Counted in widgets.signups when the contact is new to the list. */
  widgetId: string | null;
}

/** The index expression of the identity's unique index (lower(...) collate "C"), compared to its lowered value. */
function sameIdentity(identity: Identity) {
  return 'email' in identity
    ? sql`lower(${contacts.email}) collate "C" = lower(${identity.email})`
    : sql`lower(${contacts.wallet}) collate "C" = lower(${identity.wallet})`;
}

export async function findContactId(db: Database, tenantId: string, identity: Identity): Promise<string | null> {
  const [row] = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.tenantId, tenantId), sameIdentity(identity)))
    .limit(1);
  return row?.id ?? null;
}

/** Whether the identity is a subscribed member of the list already (nothing to confirm then). */
export async function isSubscribedMember(
  db: Database,
  tenantId: string,
  listId: string,
  identity: Identity,
): Promise<boolean> {
  const [row] = await db
    .select({ id: contacts.id })
    .from(contacts)
    .innerJoin(listMembers, and(eq(listMembers.contactId, contacts.id), eq(listMembers.listId, listId)))
    .where(and(eq(contacts.tenantId, tenantId), sameIdentity(identity), eq(contacts.status, 'subscribed')))
    .limit(1);
  return row !== undefined;
}

/** A sign-up through a widget that made a new member, as listeners hear it. */
export interface WidgetSignup {
  tenantId: string;
  widgetId: string;
  listId: string;
  contactId: string;
}

/** Called inside the sign-up's transaction, so what it writes commits with the membership or not at all. */
export type WidgetSignupListener = (tx: Database, signup: WidgetSignup) => Promise<void>;

const signupListeners = new Map<string, WidgetSignupListener>();

/** Adds (or replaces, by name) a listener of widget sign-ups (automations' widget trigger). */
export function onWidgetSignup(name: string, listener: WidgetSignupListener): void {
  signupListeners.set(name, listener);
}

/** Runs inside the caller's transaction. Returns whether the contact became a member of the list now. */
export async function subscribe(tx: Database, target: SubscribeTarget, identity: Identity): Promise<boolean> {
  const [created] = await tx
    .insert(contacts)
    .values({
      tenantId: target.tenantId,
      email: 'email' in identity ? identity.email : null,
      wallet: 'wallet' in identity ? identity.wallet : null,
      status: 'subscribed',
      source: 'widget',
    })
    .onConflictDoNothing()
    .returning({ id: contacts.id });
  let contactId = created?.id ?? null;
  if (!contactId) {
    contactId = await findContactId(tx, target.tenantId, identity);
    if (!contactId) throw new Error('sign-up contact neither created nor found');
    // The person opted in again: an unsubscribed (or bounced) contact is subscribed again.
    await tx
      .update(contacts)
      .set({ status: 'subscribed', updatedAt: sql`now()` })
      .where(and(eq(contacts.id, contactId), ne(contacts.status, 'subscribed')));
  }
  const added = await tx
    .insert(listMembers)
    .values({ listId: target.listId, contactId })
    .onConflictDoNothing()
    .returning({ contactId: listMembers.contactId });
  const newMember = added.length === 1;
  if (newMember && target.widgetId) {
    await tx
      .update(widgets)
      .set({ signups: sql`${widgets.signups} + 1` })
      .where(eq(widgets.id, target.widgetId));
    const signup = { tenantId: target.tenantId, widgetId: target.widgetId, listId: target.listId, contactId };
    for (const listener of signupListeners.values()) await listener(tx, signup);
  }
  return newMember;
}
