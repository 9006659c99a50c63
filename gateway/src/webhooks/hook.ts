/**
 * The webhooks' listener on the delivery events' hook (campaigns/delivery-events.ts): a tenant known to
 * have no enabled endpoint gets no outbox row (the presence cache answers from memory); a commit that
 * wrote outbox rows wakes this process's drain (outbox.ts), where the job workers run. Elsewhere the
 * workers' periodic drain takes the rows.
 */
import type { DeliveryEventHook } from '../campaigns/index';
import type { WebhookContext } from './context';
import type { OutboxDrain } from './outbox';

export function webhookHook(ctx: WebhookContext, drain: OutboxDrain | null): DeliveryEventHook {
  return {
    wants(tenantId) {
      const wanted = ctx.presence.wants(tenantId);
      // Unknown yet: wanted this time (an outbox row the drain drops), known from the next commit on.
      if (wanted) ctx.presence.learn(tenantId);
      return wanted;
    },
    committed: () => drain?.wake(),
  };
}
