/**
 * The drain of the delivery events' outbox (campaigns/delivery-events.ts; docs/webhooks.md,
 * "Guarantees"): events are written there in the transaction that records them, and taken from it here.
 *
 * 1. claim: up to BATCH rows no one holds (never claimed, or their lease ran out), with a lease of
 *    `leaseSeconds` and a token of this pass (`for update skip locked`: two processes never claim one
 *    row at once);
 * 2. one transaction deletes the rows this pass still holds (the token) and writes their deliveries
 *    (deliveries.ts `writeDeliveries`, once per event and endpoint): a pass that lost its lease deletes
 *    nothing and writes nothing, and a process that ends before this commit leaves the rows to be
 *    claimed again when the lease runs out;
 * 3. the deliveries' first attempts (each held by one process: deliveries.ts).
 *
 * A drain runs where the job workers run: when a writer commits events (woken through the hook), at
 * start, and every poll interval (rows left by a process that ended, or written where no workers run).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { WebhookEventType } from '../contracts';
import type { BackgroundTasks } from '../lib/background';
import { intOf, queryRows, textOf } from '../lib/raw-sql';
import type { WebhookContext } from './context';
import { attemptFirst, writeDeliveries, type OwedEvent } from './deliveries';

/** Outbox rows claimed per pass (a sender's commit writes at most a few hundred). */
const BATCH = 500;

/** One pass of the drain: claims, fans out and attempts until nothing claimable is left. */
export async function drainOutbox(ctx: WebhookContext, signal?: AbortSignal): Promise<void> {
  while (!signal?.aborted) {
    const token = randomUUID();
    const claimed = await queryRows(
      ctx.db,
      sql`with free as (
            select id from delivery_event_outbox
             where lease_until is null or lease_until < now()
             order by id limit ${BATCH} for update skip locked)
          update delivery_event_outbox o
             set lease_until = now() + make_interval(secs => ${ctx.config.leaseSeconds}), lease_token = ${token}::uuid
            from free where o.id = free.id
          returning o.id, o.tenant_id::text, o.recipient_id, o.type, o.detail, o.at`,
    );
    if (claimed.length === 0) return;
    const events: OwedEvent[] = claimed.map((row) => ({
      type: (textOf(row, 'type') ?? '') as WebhookEventType,
      tenantId: textOf(row, 'tenant_id') ?? '',
      recipientId: intOf(row, 'recipient_id'),
      at: row.at instanceof Date ? row.at : new Date(String(row.at)),
      detail: textOf(row, 'detail'),
      source: `outbox:${intOf(row, 'id')}`,
    }));
    // Tenants seen here are cached by the presence check: their next commits write no row when they
    // have no endpoint.
    for (const tenantId of new Set(events.map((e) => e.tenantId))) await ctx.presence.has(tenantId);
    const written = await ctx.db.transaction(async (tx) => {
      const held = await queryRows(
        tx,
        sql`delete from delivery_event_outbox where lease_token = ${token}::uuid returning id`,
      );
      const ours = new Set(held.map((r) => intOf(r, 'id')));
      return writeDeliveries(
        ctx,
        tx,
        events.filter((e) => ours.has(Number(e.source.slice('outbox:'.length)))),
      );
    });
    await attemptFirst(ctx, written, signal);
    if (claimed.length < BATCH) return;
  }
}

/**
 * Runs `drainOutbox` in the background, one pass at a time: woken while a pass runs, it runs another
 * right after (the rows committed meanwhile may have come after that pass's claim).
 */
export class OutboxDrain {
  private running = false;
  private again = false;

  constructor(
    private readonly ctx: WebhookContext,
    private readonly background: BackgroundTasks,
    private readonly signal?: AbortSignal,
  ) {}

  wake(): void {
    if (this.signal?.aborted) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    this.background.run(async () => {
      try {
        do {
          this.again = false;
          await drainOutbox(this.ctx, this.signal);
        } while (this.again && !this.signal?.aborted);
      } finally {
        this.running = false;
      }
    });
  }
}
