/**
 * The one hook on a message's delivery events (docs/webhooks.md, "Where events come from"): every place
 * that records one (the sender's commit: sent, delivered, bounced; the tracking endpoints: opened,
 * clicked, unsubscribed; the mail provider's webhook and the inbound receiver: bounced, complained,
 * unsubscribed) also writes the event into `delivery_event_outbox` IN THE SAME TRANSACTION, when a
 * listener may want it, and after the commit tells the listener that rows are waiting.
 *
 * So an event is never lost between its commit and the listener: a process killed right after the
 * commit leaves the outbox row, and the listener's drain (in any process) takes it. The hook is set per
 * database by whichever area listens (webhooks), so this area names none. `wants` answers from the
 * listener's cache and never waits (a tenant known to have no endpoints costs one map read and no
 * outbox row); `committed` only wakes the listener.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/index';
import type { Queryable } from '../lib/raw-sql';

/** The message events an outside listener may receive (the contracts' WEBHOOK_EVENT_TYPES). */
export type DeliveryEventType = 'sent' | 'delivered' | 'opened' | 'clicked' | 'bounced' | 'complained' | 'unsubscribed';

/** One event of one recipient row (campaign_recipients.id), at the time it was recorded. */
export interface DeliveryEvent {
  type: DeliveryEventType;
  tenantId: string;
  recipientId: number;
  at: Date;
  /** The server's answer of a bounce, the complaint's type, the clicked URL. */
  detail?: string | null;
}

export interface DeliveryEventHook {
  /** Whether events of this tenant may be wanted (true while unknown). Synchronous and cheap. */
  wants(tenantId: string): boolean;
  /** Outbox rows were committed: take them soon. Never throws and never waits. */
  committed(): void;
}

/**
 * Keyed by the database object the writers were handed (never a transaction's): writers inside a
 * transaction name the database too, for `wants`, and call `deliveryEventsCommitted` after the commit.
 */
const hooks = new WeakMap<object, DeliveryEventHook>();

/** Sets the listener of this database's delivery events (one per composition root). */
export function setDeliveryEventHook(db: Database, hook: DeliveryEventHook): void {
  hooks.set(db, hook);
}

/** Whether anyone may want this tenant's events now (no outbox row is written when not). */
export function wantsDeliveryEvents(db: object, tenantId: string): boolean {
  return hooks.get(db)?.wants(tenantId) ?? false;
}

/** Tells the listener that outbox rows were committed (after the writer's commit). */
export function deliveryEventsCommitted(db: object): void {
  hooks.get(db)?.committed();
}

/**
 * The outbox insert for a statement that records events: `rows` selects `(recipient_id, type, detail)`
 * (a CTE's rows: the sender's commit writes its events in its one statement).
 */
export function outboxInsertSql(tenantId: string, at: Date, rows: SQL): SQL {
  return sql`insert into delivery_event_outbox (tenant_id, recipient_id, type, detail, at)
             select ${tenantId}::uuid, e.recipient_id, e.type, e.detail, ${at}::timestamptz
               from (${rows}) as e(recipient_id, type, detail)
             returning 1`;
}

/**
 * Writes `event` into the outbox with `tx` (the transaction that records it), when the listener of `db`
 * may want it. Answers whether a row was written: then the caller calls `deliveryEventsCommitted(db)`
 * after its commit.
 */
export async function recordDeliveryEvent(db: object, tx: Queryable, event: DeliveryEvent): Promise<boolean> {
  if (!wantsDeliveryEvents(db, event.tenantId)) return false;
  await tx.execute(
    sql`insert into delivery_event_outbox (tenant_id, recipient_id, type, detail, at)
        values (${event.tenantId}::uuid, ${event.recipientId}, ${event.type}, ${event.detail ?? null}, ${event.at})`,
  );
  return true;
}
