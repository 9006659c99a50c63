/**
 * From a delivery event to attempts at each endpoint that wants it (docs/webhooks.md, "Delivery"):
 *
 * 1. fan-out (outbox.ts takes events from the delivery events' outbox): the tenant's enabled endpoints
 *    that want each event get a delivery row with the signed body, written once per (event, endpoint)
 *    in the transaction that removes the event from the outbox, then their first attempts are made,
 *    several at once;
 * 2. an attempt (the first in the fan-out, each retry a delayed job of its own): the delivery is held
 *    for the attempt (`attempting_until`: no other process makes the same attempt meanwhile), the
 *    address is checked again, the body is POSTed with the Standard Webhooks headers, the attempt is
 *    logged; 2xx is delivered, anything else is retried on the schedule (retry-schedule.ts) until it is
 *    spent. When a delivery's last attempt fails and the endpoint has not answered 2xx since that
 *    delivery was made (a whole retry schedule, about a day), the endpoint is disabled with the reason;
 * 3. the sweep (every 5 minutes): a delivery whose next attempt was lost (a process ended between logging
 *    an attempt and queueing the next, or after a fan-out's commit and before its first attempts) is
 *    queued again; deliveries older than 30 days are deleted.
 *
 * Jobs run at least once: an attempt job whose attempt is already logged, or held, does nothing.
 */
import { sql } from 'drizzle-orm';
import type { WebhookAttempt, WebhookDeliveryState, WebhookEventType } from '../contracts';
import { WEBHOOK_EVENT_TYPES } from '../contracts';
import { queryRows, textOf, intOf, type Queryable, type Row } from '../lib/raw-sql';
import { ATTEMPT_COLUMNS, attemptOf } from './attempt-log';
import { DELIVER_QUEUE, type WebhookContext } from './context';
import { eventBody, testBody, type MessageFacts } from './payload';
import { postSigned } from './post';
import { attemptsAllowed, nextAttemptAt } from './retry-schedule';
import { newEventId, signedHeaders } from './signing';

/** One delivery event taken from the outbox (outbox.ts), with the source its deliveries are written under. */
export interface OwedEvent {
  type: WebhookEventType;
  tenantId: string;
  recipientId: number;
  at: Date;
  detail: string | null;
  /** Unique per event: each endpoint's delivery of it is `${source}:${endpointId}`. */
  source: string;
}

export interface DeliverJob {
  deliveryId: string;
  attempt: number;
}

/** First attempts a fan-out makes at once (each may wait up to the timeout on another server). */
const ATTEMPTS_AT_ONCE = 8;

export const DISABLED_REASON =
  'Disabled by the gateway: every delivery attempt failed for a whole retry schedule (about a day). Enable it again once it answers 2xx.';

const uuidArray = (ids: readonly string[]) => `{${ids.join(',')}}`;

/**
 * The facts of each recipient row named (campaign_recipients joined with its campaign, and with the
 * transactional message it carries, if any: docs/transactional.md, "Carriers").
 */
async function messageFacts(db: Queryable, ctx: WebhookContext, ids: number[]): Promise<Map<number, MessageFacts>> {
  const rows = await queryRows(
    db,
    sql`select r.id, r.campaign_id::text, r.address, r.message_id, r.contact_id::text, c.template_id::text,
               c.kind, tm.id::text as transactional_id
          from campaign_recipients r join campaigns c on c.id = r.campaign_id
          left join transactional_messages tm on tm.recipient_id = r.id
         where r.id = any(${`{${ids.join(',')}}`}::bigint[])`,
  );
  const facts = new Map<number, MessageFacts>();
  for (const row of rows) {
    const id = intOf(row, 'id');
    facts.set(id, {
      recipientId: ctx.recipientToken(id),
      messageId: textOf(row, 'message_id'),
      // A transactional message's carrier is no campaign anyone made: its API id names it instead.
      campaignId: textOf(row, 'kind') === 'transactional' ? null : textOf(row, 'campaign_id'),
      transactionalId: textOf(row, 'transactional_id'),
      templateId: textOf(row, 'template_id'),
      email: textOf(row, 'address') ?? '',
      contactId: textOf(row, 'contact_id'),
    });
  }
  return facts;
}

/**
 * Step 1, inside the caller's transaction `tx`: the deliveries of `events` (one per enabled endpoint of
 * the event's tenant that wants its type), each with its signed body and a new `webhook-id`, written
 * once per source (a second write of the same event changes nothing). Answers the ids written.
 */
export async function writeDeliveries(ctx: WebhookContext, tx: Queryable, events: OwedEvent[]): Promise<string[]> {
  const known = events.filter((e) => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(e.type));
  if (known.length === 0) return [];
  const tenants = [...new Set(known.map((e) => e.tenantId))];
  const endpoints = await queryRows(
    tx,
    sql`select id::text, tenant_id::text, events from webhook_endpoints
         where tenant_id = any(${uuidArray(tenants)}::uuid[]) and enabled`,
  );
  if (endpoints.length === 0) return [];
  const facts = await messageFacts(tx, ctx, [...new Set(known.map((e) => e.recipientId))]);
  const rows: {
    event_id: string;
    endpoint_id: string;
    tenant_id: string;
    type: string;
    body: string;
    source: string;
  }[] = [];
  for (const event of known) {
    const fact = facts.get(event.recipientId);
    if (!fact) continue;
    const body = eventBody(event.type, event.at, fact, event.detail);
    for (const endpoint of endpoints) {
      const wanted = endpoint.events as string[] | string;
      const wants = Array.isArray(wanted) ? wanted.includes(event.type) : String(wanted).includes(event.type);
      if (textOf(endpoint, 'tenant_id') !== event.tenantId || !wants) continue;
      const endpointId = textOf(endpoint, 'id') ?? '';
      rows.push({
        event_id: newEventId(),
        endpoint_id: endpointId,
        tenant_id: event.tenantId,
        type: event.type,
        body,
        source: `${event.source}:${endpointId}`,
      });
    }
  }
  if (rows.length === 0) return [];
  const written = await queryRows(
    tx,
    sql`insert into webhook_deliveries (event_id, endpoint_id, tenant_id, type, body, source)
        select * from json_to_recordset(${JSON.stringify(rows)}::json)
          as x(event_id text, endpoint_id uuid, tenant_id uuid, type text, body text, source text)
        on conflict (source) do nothing
        returning id::text`,
  );
  return written.map((r) => textOf(r, 'id') ?? '');
}

/**
 * The first attempts of new deliveries, ATTEMPTS_AT_ONCE at a time (a job per attempt would wait a
 * poll interval each). A delivery whose first attempt another process holds or made is skipped
 * (attemptDelivery's claim); one never attempted (this process ended first) is found by the sweep.
 */
export async function attemptFirst(ctx: WebhookContext, ids: string[], signal?: AbortSignal): Promise<void> {
  const queue = [...ids];
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      if (signal?.aborted) return;
      await attemptDelivery(ctx, id, 1);
    }
  };
  await Promise.all(Array.from({ length: Math.min(ATTEMPTS_AT_ONCE, queue.length) }, worker));
}

/** Postgres text cannot hold NUL: the kept answer drops it. */
function storable(text: string | null): string | null {
  // eslint-disable-next-line no-control-regex
  return text === null ? null : text.replace(/\u0000/g, '');
}

interface DeliveryRow {
  id: string;
  eventId: string;
  endpointId: string;
  type: string;
  body: string;
  attempts: number;
  state: string;
  createdAt: Date;
  url: string;
  secret: string;
  enabled: boolean;
}

async function deliveryRow(ctx: WebhookContext, id: string): Promise<DeliveryRow | null> {
  const [row] = await queryRows(
    ctx.db,
    sql`select d.id::text, d.event_id, d.endpoint_id::text, d.type, d.body, d.attempts, d.state, d.created_at,
               e.url, e.secret, e.enabled
          from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id where d.id = ${id}::uuid`,
  );
  if (!row) return null;
  return {
    id: textOf(row, 'id') ?? id,
    eventId: textOf(row, 'event_id') ?? '',
    endpointId: textOf(row, 'endpoint_id') ?? '',
    type: textOf(row, 'type') ?? '',
    body: textOf(row, 'body') ?? '',
    attempts: intOf(row, 'attempts'),
    state: textOf(row, 'state') ?? '',
    createdAt: row.created_at instanceof Date ? row.created_at : new Date(String(row.created_at)),
    url: textOf(row, 'url') ?? '',
    secret: textOf(row, 'secret') ?? '',
    enabled: row.enabled === true,
  };
}

/**
 * Step 2: attempt `attempt` of a delivery, once. Answers the attempt logged, or null when there was
 * nothing to do (delivered or failed already, this attempt made already, the endpoint deleted).
 * `retry: false` (the test event) makes the first attempt the last.
 */
export async function attemptDelivery(
  ctx: WebhookContext,
  deliveryId: string,
  attempt: number,
  retry = true,
): Promise<WebhookAttempt | null> {
  // The attempt is held for its whole time and a margin: a second process (a job run twice, the sweep)
  // finds it held and does nothing; a process that ended mid-attempt leaves it to the sweep.
  const holdSeconds = Math.ceil(ctx.config.timeoutMs / 1000) + 30;
  const held = await queryRows(
    ctx.db,
    sql`update webhook_deliveries set attempting_until = now() + make_interval(secs => ${holdSeconds})
         where id = ${deliveryId}::uuid and attempts = ${attempt - 1} and state in ('pending', 'retrying')
           and (attempting_until is null or attempting_until < now())
        returning id`,
  );
  if (held.length === 0) return null;
  const d = await deliveryRow(ctx, deliveryId);
  if (!d || d.state === 'delivered' || d.state === 'failed' || d.attempts >= attempt) return null;
  const at = ctx.clock();
  const outcome = d.enabled
    ? await postSigned(d.url, signedHeaders(d.secret, d.eventId, Math.floor(at.getTime() / 1000), d.body), d.body, {
        policy: ctx.policy,
        timeoutMs: ctx.config.timeoutMs,
      })
    : { statusCode: null, ms: null, error: 'Not sent: the endpoint is disabled.', body: null };
  const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
  const next = ok || !retry || !d.enabled ? null : nextAttemptAt(ctx.config.retrySeconds, attempt, ctx.clock());
  const state: WebhookDeliveryState = ok ? 'delivered' : next ? 'retrying' : 'failed';
  const error = ok ? null : (outcome.error ?? `The endpoint answered ${outcome.statusCode}.`);
  const logged = await ctx.db.transaction(async (tx) => {
    const moved = await queryRows(
      tx,
      sql`update webhook_deliveries set attempts = ${attempt}, state = ${state}, next_attempt_at = ${next},
                                         attempting_until = null
           where id = ${d.id}::uuid and attempts = ${attempt - 1} and state in ('pending', 'retrying') returning id`,
    );
    if (moved.length === 0) return null;
    const [row] = await queryRows(
      tx,
      sql`insert into webhook_attempts (delivery_id, endpoint_id, attempt, status_code, response_ms, error,
                                        response_body, at, next_attempt_at, state)
          values (${d.id}::uuid, ${d.endpointId}::uuid, ${attempt}, ${outcome.statusCode}, ${outcome.ms},
                  ${error}, ${storable(outcome.body)}, ${at}, ${next}, ${state})
          returning id`,
    );
    return row ?? null;
  });
  if (!logged) return null;
  if (next)
    await ctx.jobs.send<DeliverJob>(DELIVER_QUEUE, { deliveryId: d.id, attempt: attempt + 1 }, { startAfter: next });
  if (state === 'failed' && retry && d.enabled && attempt >= attemptsAllowed(ctx.config.retrySeconds)) {
    await disableIfFailing(ctx, d);
  }
  const [shown] = await queryRows(
    ctx.db,
    sql`select ${ATTEMPT_COLUMNS} from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
         where a.id = ${(logged as Row).id}`,
  );
  return shown ? attemptOf(shown) : null;
}

/** Disables the endpoint when no attempt of it was answered 2xx since this delivery was made. */
async function disableIfFailing(ctx: WebhookContext, d: DeliveryRow): Promise<void> {
  const disabled = await queryRows(
    ctx.db,
    sql`update webhook_endpoints set enabled = false, disabled_reason = ${DISABLED_REASON}, updated_at = now()
         where id = ${d.endpointId}::uuid and enabled
           and not exists (select 1 from webhook_attempts
                            where endpoint_id = ${d.endpointId}::uuid and at >= ${d.createdAt}
                              and status_code between 200 and 299)
        returning tenant_id::text`,
  );
  const tenant = disabled[0] ? textOf(disabled[0], 'tenant_id') : null;
  if (tenant) {
    ctx.presence.forget(tenant);
    ctx.log.warn({ endpointId: d.endpointId }, 'webhook endpoint disabled after a day of failures');
  }
}

/** `POST …/test`: a test event to the endpoint now, one attempt, answered with its log entry. */
export async function sendTestEvent(
  ctx: WebhookContext,
  tenantId: string,
  endpointId: string,
): Promise<WebhookAttempt> {
  const at = ctx.clock();
  const [row] = await queryRows(
    ctx.db,
    sql`insert into webhook_deliveries (event_id, endpoint_id, tenant_id, type, body)
        values (${newEventId()}, ${endpointId}::uuid, ${tenantId}::uuid, 'test', ${testBody(endpointId, at)})
        returning id::text`,
  );
  const id = row ? textOf(row, 'id') : null;
  if (!id) throw new Error('test delivery not inserted');
  const made = await attemptDelivery(ctx, id, 1, false);
  if (!made) throw new Error('test delivery not attempted');
  return made;
}

/** Step 3: deliveries whose job was lost are queued again; deliveries past 30 days are deleted. */
export async function sweep(ctx: WebhookContext): Promise<void> {
  const lost = await queryRows(
    ctx.db,
    sql`select id::text, attempts from webhook_deliveries
         where ((state = 'retrying' and next_attempt_at < now() - interval '5 minutes')
             or (state = 'pending' and attempts = 0 and type <> 'test' and created_at < now() - interval '5 minutes'))
           and (attempting_until is null or attempting_until < now())
         limit 1000`,
  );
  await ctx.jobs.sendMany<DeliverJob>(
    DELIVER_QUEUE,
    lost.map((r) => ({ data: { deliveryId: textOf(r, 'id') ?? '', attempt: intOf(r, 'attempts') + 1 } })),
  );
  await ctx.db.execute(
    sql`delete from webhook_deliveries where id in (
          select id from webhook_deliveries where created_at < now() - interval '30 days' limit 10000)`,
  );
}
