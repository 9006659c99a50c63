/**
 * Transactional e-mails' tables (spec section 2: engagement/transactional-emails; docs/transactional.md):
 * per-template settings, the carriers (a hidden campaign per template and sender, whose recipient rows
 * are the messages, so the campaign sender delivers them), the messages' API side, idempotency keys and
 * daily counts for the grid.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from '../db/columns';
import { tenants } from '../db/shared-schema';
import { templates } from '../templates/schema';
import { campaignRecipients, campaigns } from '../campaigns/schema';

/** A transactional template's settings; a template without a row has the defaults. */
export const transactionalSettings = pgTable('transactional_settings', {
  templateId: uuid('template_id')
    .primaryKey()
    .references(() => templates.id, { onDelete: 'cascade' }),
  tenantId: uuid('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  sendToUnsubscribed: boolean('send_to_unsubscribed').notNull().default(true),
  trackOpens: boolean('track_opens').notNull().default(true),
  trackClicks: boolean('track_clicks').notNull().default(true),
  updatedAt: updatedAt(),
});

/** The hidden campaign that carries a template's messages from one sender (From and Reply-To). */
export const transactionalCarriers = pgTable(
  'transactional_carriers',
  {
    campaignId: uuid('campaign_id')
      .primaryKey()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    templateId: uuid('template_id')
      .notNull()
      .references(() => templates.id, { onDelete: 'cascade' }),
    fromEmail: text('from_email').notNull(),
    replyTo: text('reply_to').notNull(),
  },
  (t) => [uniqueIndex('transactional_carriers_sender_idx').on(t.templateId, t.fromEmail, t.replyTo)],
);

/** A message accepted by the API: its id (the API's message_id), its recipient row and its merge data. */
export const transactionalMessages = pgTable(
  'transactional_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    templateId: uuid('template_id')
      .notNull()
      .references(() => templates.id, { onDelete: 'cascade' }),
    recipientId: bigint('recipient_id', { mode: 'number' })
      .notNull()
      .references(() => campaignRecipients.id, { onDelete: 'cascade' }),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('transactional_messages_recipient_idx').on(t.recipientId),
    index('transactional_messages_template_idx').on(t.templateId, t.createdAt),
  ],
);

/**
 * An Idempotency-Key of a tenant: the request's hash and, once answered, the answer. The primary key
 * makes concurrent duplicates wait for one insert; keys older than a day are deleted.
 */
export const transactionalIdempotency = pgTable(
  'transactional_idempotency',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    status: integer('status'),
    answer: jsonb('answer'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.key] }), index('transactional_idempotency_created_idx').on(t.createdAt)],
);

/** Messages handed over (and answered bounced or failed) per template and day (the grid's "sent in the last 30 days" and "last sent"). */
export const transactionalDays = pgTable(
  'transactional_days',
  {
    templateId: uuid('template_id')
      .notNull()
      .references(() => templates.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    sent: integer('sent').notNull().default(0),
    /** Answered bounced or failed by the sender that day (later bounce reports are on the carriers' counters). */
    bounced: integer('bounced').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .default(sql`now()`),
  },
  (t) => [primaryKey({ columns: [t.templateId, t.day] }), index('transactional_days_day_idx').on(t.day, t.tenantId)],
);
