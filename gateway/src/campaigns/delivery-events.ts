/**
 * The one hook on a message's delivery events (docs/webhooks.md, "Where events come from"): every place
 * that records one calls `emitDeliveryEvents` after its write committed: the sender's commit (sent,
 * delivered, bounced), the tracking endpoints (opened, clicked, unsubscribed), the mail provider's
 * webhook and the inbound receiver (bounced, complained, unsubscribed).
 *
 * The hook is set per database by whichever area listens (webhooks), so this area names none. It is
 * synchronous and never waits: `wants` answers from the listener's cache (a tenant known to have no
 * endpoints costs one map read), `emit` hands the events over and returns; the listener queues its own
 * durable work in the background. A caller that would have to read extra rows to build events asks
 * `wants` first.
 */
import type { Database } from '../db/index';

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
  /** Takes the events; never throws and never waits. */
  emit(events: readonly DeliveryEvent[]): void;
}

/**
 * Keyed by the database object the writers were handed: a write inside a transaction (another object)
 * finds no hook, since its events are not committed yet; its caller emits after the commit.
 */
const hooks = new WeakMap<object, DeliveryEventHook>();

/** Sets the listener of this database's delivery events (one per composition root). */
export function setDeliveryEventHook(db: Database, hook: DeliveryEventHook): void {
  hooks.set(db, hook);
}

/** Whether anyone may want this tenant's events now (building them can be skipped when not). */
export function wantsDeliveryEvents(db: object, tenantId: string): boolean {
  return hooks.get(db)?.wants(tenantId) ?? false;
}

/** Hands committed events to the listener, if there is one that wants them. */
export function emitDeliveryEvents(db: object, events: readonly DeliveryEvent[]): void {
  const hook = hooks.get(db);
  if (!hook || events.length === 0) return;
  const wanted = events.filter((e) => hook.wants(e.tenantId));
  if (wanted.length > 0) hook.emit(wanted);
}
