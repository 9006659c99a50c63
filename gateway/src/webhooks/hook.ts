/**
 * The webhooks' listener on the delivery events' hook (campaigns/delivery-events.ts): events of a tenant
 * without enabled endpoints are dropped (the presence cache answers from memory); the others are queued
 * as one fan-out job per call, in the background, so the caller (the sender's commit, a tracking
 * request) never waits for it. A process ending between the caller's commit and that job's insert loses
 * those webhooks (docs/webhooks.md, "Guarantees").
 */
import type { DeliveryEvent, DeliveryEventHook } from '../campaigns/index';
import type { BackgroundTasks } from '../lib/background';
import { FANOUT_QUEUE, type WebhookContext } from './context';
import type { FanoutJob, QueuedEvent } from './deliveries';

/** Events per fan-out job (a sender's commit is at most a few hundred rows). */
const EVENTS_PER_JOB = 1000;

export function webhookHook(ctx: WebhookContext, background: BackgroundTasks): DeliveryEventHook {
  return {
    wants: (tenantId) => ctx.presence.wants(tenantId),
    emit(events: readonly DeliveryEvent[]) {
      background.run(async () => {
        const queued: QueuedEvent[] = [];
        for (const tenantId of new Set(events.map((e) => e.tenantId))) {
          if (!(await ctx.presence.has(tenantId))) continue;
          for (const e of events) {
            if (e.tenantId !== tenantId) continue;
            queued.push({
              type: e.type,
              tenantId,
              recipientId: e.recipientId,
              at: e.at.toISOString(),
              detail: e.detail ?? null,
            });
          }
        }
        for (let i = 0; i < queued.length; i += EVENTS_PER_JOB) {
          await ctx.jobs.send<FanoutJob>(FANOUT_QUEUE, { events: queued.slice(i, i + EVENTS_PER_JOB) });
        }
      });
    },
  };
}
