/** Outgoing webhooks' tables: the tenant's endpoints, the events owed to each, and every attempt. */
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from '../db/columns';
import { tenants } from '../db/shared-schema';

/**
 * An endpoint a tenant registered (account/api-access/webhooks): an https address (checked to be public
 * at save time and again at each delivery), the event types it wants, and its Standard Webhooks signing
 * secret (`whsec_` + base64 of 24 random bytes). `disabledReason` is set when the gateway turned the
 * endpoint off (every attempt of a delivery failed for a day: docs/webhooks.md).
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    events: text('events').array().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    secret: text('secret').notNull(),
    disabledReason: text('disabled_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('webhook_endpoints_tenant_idx').on(t.tenantId, t.createdAt)],
);

/**
 * One event owed to one endpoint: its body (signed as stored, the same on every attempt), its state and
 * its attempts so far. `source` makes the fan-out idempotent (the outbox row it came from and the
 * endpoint).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The `webhook-id` header: `msg_` + 24 random base62-ish characters. */
    eventId: text('event_id').notNull(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id').notNull(),
    type: text('type').notNull(),
    body: text('body').notNull(),
    source: text('source'),
    attempts: integer('attempts').notNull().default(0),
    state: text('state').$type<'pending' | 'retrying' | 'delivered' | 'failed'>().notNull().default('pending'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }),
    /** An attempt in progress holds the delivery until then: no other process makes that attempt meanwhile. */
    attemptingUntil: timestamp('attempting_until', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_source_idx').on(t.source),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
    // The sweep's reads: deliveries still owed an attempt, and the oldest for deletion.
    index('webhook_deliveries_open_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.state} in ('pending', 'retrying')`),
    index('webhook_deliveries_created_idx').on(t.createdAt),
    check('webhook_deliveries_state_check', sql`${t.state} in ('pending', 'retrying', 'delivered', 'failed')`),
  ],
);

/** Every attempt of a delivery, for the endpoint's log (newest first by id). */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    endpointId: uuid('endpoint_id').notNull(),
    attempt: integer('attempt').notNull(),
    statusCode: integer('status_code'),
    responseMs: integer('response_ms'),
    error: text('error'),
    responseBody: text('response_body'),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }),
    state: text('state').notNull(),
  },
  (t) => [
    uniqueIndex('webhook_attempts_delivery_idx').on(t.deliveryId, t.attempt),
    index('webhook_attempts_endpoint_idx').on(t.endpointId, t.id),
  ],
);
