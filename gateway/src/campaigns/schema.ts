/** Campaigns' tables: the e-mails and their delivery (spec section 2: engagement/emails, compose, log). */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
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
import type {
  AudienceSelection,
  CampaignEventType,
  CampaignStatus,
  RecipientChannel,
  RecipientStatus,
  UtmParameters,
} from '../contracts';
import { createdAt, updatedAt } from '../db/columns';
import { contacts } from '../audience/schema';
import { tenants, users } from '../db/shared-schema';
import { templates } from '../templates/schema';

/** An e-mail to the community's audience: a draft, then scheduled, sending, sent (or paused, cancelled, failed). */
export const campaigns = pgTable(
  'campaigns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /**
     * 'campaign': an e-mail composed in the console. 'transactional': the carrier of a transactional
     * template's messages sent through the API (transactional/carriers.ts); never listed as an e-mail.
     */
    kind: text('kind').$type<'campaign' | 'transactional'>().notNull().default('campaign'),
    subject: text('subject').notNull().default(''),
    previewText: text('preview_text').notNull().default(''),
    /** Set null when the template is deleted (a draft then asks for another one). */
    templateId: uuid('template_id').references(() => templates.id, { onDelete: 'set null' }),
    /** The template version taken when sending started (what every recipient gets). */
    templateVersion: integer('template_version'),
    status: text('status').$type<CampaignStatus>().notNull().default('draft'),
    audience: jsonb('audience')
      .$type<AudienceSelection>()
      .notNull()
      .default({ include_lists: [], include_segments: [], exclude_lists: [], exclude_segments: [] }),
    fromName: text('from_name').notNull().default(''),
    fromEmail: text('from_email').notNull().default(''),
    replyTo: text('reply_to').notNull().default(''),
    trackOpens: boolean('track_opens').notNull().default(true),
    trackClicks: boolean('track_clicks').notNull().default(true),
    utm: jsonb('utm')
      .$type<UtmParameters>()
      .notNull()
      .default({ source: '', medium: '', campaign: '', term: '', content: '' }),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true, mode: 'date' }),
    timeZone: text('time_zone').notNull().default('UTC'),
    /** When sending started (the audience was taken then) and ended. */
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    /** When the audience was taken into `campaign_recipients` (null: not yet; the snapshot is done once). */
    audienceTakenAt: timestamp('audience_taken_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    failureReason: text('failure_reason'),
    /** Figures kept by the sender and the event recorder in the same transactions as the rows they count. */
    recipients: integer('recipients').notNull().default(0),
    sent: integer('sent').notNull().default(0),
    delivered: integer('delivered').notNull().default(0),
    bounced: integer('bounced').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    /** Messages handed over whose answer was never read (docs/sending.md): they may not have arrived. */
    unconfirmed: integer('unconfirmed').notNull().default(0),
    opened: integer('opened').notNull().default(0),
    clicked: integer('clicked').notNull().default(0),
    unsubscribed: integer('unsubscribed').notNull().default(0),
    complained: integer('complained').notNull().default(0),
    /** Bumped by every save (autosave conflicts) and every status change. */
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('campaigns_tenant_updated_idx').on(t.tenantId, t.updatedAt, t.id),
    index('campaigns_tenant_created_idx').on(t.tenantId, t.createdAt, t.id),
    index('campaigns_tenant_name_idx').on(t.tenantId, sql`lower(${t.name})`, t.id),
    index('campaigns_tenant_scheduled_idx').on(t.tenantId, t.scheduledAt, t.id),
    index('campaigns_template_idx').on(t.templateId),
    check('campaigns_kind_check', sql`${t.kind} in ('campaign', 'transactional')`),
    check(
      'campaigns_status_check',
      sql`${t.status} in ('draft', 'scheduled', 'sending', 'paused', 'sent', 'cancelled', 'failed')`,
    ),
  ],
);

/**
 * The audience taken when sending started: one row per address (each address once). A row moves
 * queued → sending (claimed) → handing (committed just before the end of its data) → delivered,
 * deferred (retried at `next_attempt_at`), bounced, failed or unconfirmed (handed over, no answer
 * read); the states and who writes each are in docs/sending.md.
 */
export const campaignRecipients = pgTable(
  'campaign_recipients',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** Null once the contact is deleted (the delivery log keeps the address). */
    contactId: uuid('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    /** Lower-cased; unique per campaign. */
    address: text('address').notNull(),
    channel: text('channel').$type<RecipientChannel>().notNull().default('email'),
    status: text('status').$type<RecipientStatus>().notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }),
    /** The worker that claimed the row last, and when. */
    claimedBy: text('claimed_by'),
    claimedAt: timestamp('claimed_at', { withTimezone: true, mode: 'date' }),
    /**
     * The send lease (`campaign_send_leases.id`) that holds a 'sending' or 'handing' row: every write of
     * the sender checks it, so a worker whose lease was taken over writes nothing (docs/sending.md).
     */
    claimEpoch: bigint('claim_epoch', { mode: 'number' }),
    messageId: text('message_id'),
    /**
     * When the message was handed to the mail server (its last attempt), and when the server took it.
     * The delivery log's timeline shows them as its 'sent' and 'delivered' entries: they are not event
     * rows (campaign_events), which would cost two indexed rows per message sent.
     */
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
    openedAt: timestamp('opened_at', { withTimezone: true, mode: 'date' }),
    clickedAt: timestamp('clicked_at', { withTimezone: true, mode: 'date' }),
    unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true, mode: 'date' }),
    error: text('error'),
    /** Soft bounces reported for the message (delayed, or failed for a temporary reason): counted, the contact unchanged. */
    softBounces: integer('soft_bounces').notNull().default(0),
    /**
     * 0 for a campaign's recipient (each address once per campaign); a transactional message's row id,
     * so an address may receive a template's messages many times (transactional/accept.ts).
     */
    occurrence: bigint('occurrence', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    uniqueIndex('campaign_recipients_address_idx').on(t.campaignId, t.address, t.occurrence),
    index('campaign_recipients_status_idx').on(t.campaignId, t.status, t.id),
    index('campaign_recipients_contact_idx').on(t.contactId),
    check(
      'campaign_recipients_status_check',
      sql`${t.status} in ('queued', 'sending', 'handing', 'delivered', 'deferred', 'bounced', 'failed', 'unconfirmed', 'skipped')`,
    ),
    check('campaign_recipients_channel_check', sql`${t.channel} in ('email', 'wallet')`),
  ],
);

/**
 * The audience a send took (campaigns/audience.ts), in parts of at most AUDIENCE_PART recipients kept
 * as arrays: taking a million contacts writes a few hundred rows. The sender turns one part at a time
 * into `campaign_recipients` rows as it reaches them, a slice per statement (`expanded_count`, then
 * `expanded_at`), in the statement that marks it.
 */
export const campaignAudience = pgTable(
  'campaign_audience',
  {
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    part: integer('part').notNull(),
    /**
     * The last contact of the walk's slice this part came from (the walk is in the order of the
     * contacts' `created_at`, then id): a walk cut off resumes after it.
     */
    lastCreatedAt: timestamp('last_created_at', { withTimezone: true, mode: 'string' }).notNull(),
    lastContactId: uuid('last_contact_id').notNull(),
    contactIds: uuid('contact_ids').array().notNull(),
    /** Lower-cased, as `campaign_recipients.address`. */
    addresses: text('addresses').array().notNull(),
    channels: text('channels').array().notNull(),
    /** Recipients of the part already taken into rows (a part may be taken in slices); all once `expanded_at` is set. */
    expandedCount: integer('expanded_count').notNull().default(0),
    expandedAt: timestamp('expanded_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    primaryKey({ columns: [t.campaignId, t.part] }),
    index('campaign_audience_waiting_idx')
      .on(t.campaignId, t.part)
      .where(sql`${t.expandedAt} is null`),
  ],
);

/**
 * A sending process's hold on a campaign (docs/sending.md): its id is the epoch its claimed rows carry
 * (`campaign_recipients.claim_epoch`). The holder renews `expires_at`; once it has passed, any worker
 * takes the lease over (revokes it, settles its rows, deletes it), and the late writes of the old
 * holder match no row.
 */
export const campaignSendLeases = pgTable(
  'campaign_send_leases',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    worker: text('worker').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** Taken over (or ended): no statement of the holder writes any more; deleted once its rows are settled. */
    revoked: boolean('revoked').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('campaign_send_leases_expires_idx').on(t.expiresAt)],
);

/** What happened to each recipient, in order: the delivery log's timeline and chart. */
export const campaignEvents = pgTable(
  'campaign_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    /**
     * The recipient row. Not a foreign key: events are written for rows the same transaction has just
     * updated or read, a recipient row is only ever deleted with its campaign (whose cascade removes
     * the events), and a check per event cost a lookup and a row lock on every send.
     */
    recipientId: bigint('recipient_id', { mode: 'number' }).notNull(),
    type: text('type').$type<CampaignEventType>().notNull(),
    /** Opens and clicks by machines (privacy proxies, link scanners): kept, not counted in rates. */
    machine: boolean('machine').notNull().default(false),
    /** Index of the clicked link in `campaign_links`. */
    linkIndex: integer('link_index'),
    detail: text('detail'),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('campaign_events_recipient_idx').on(t.recipientId, t.id),
    index('campaign_events_campaign_type_idx').on(t.campaignId, t.type, t.recipientId),
  ],
);

/**
 * Delivery events owed to an outside listener (webhooks), written in the same transaction as the event
 * itself (delivery-events.ts): a process killed after that commit leaves the row, and the listener's
 * drain takes it. A drain claims rows with a lease (`leaseUntil`, `leaseToken`), so two processes never
 * hold one row at once; a row is deleted in the transaction that makes what the listener owes for it.
 * Only tenants whose events may be wanted get rows (the listener's cache says so).
 */
export const deliveryEventOutbox = pgTable(
  'delivery_event_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tenantId: uuid('tenant_id').notNull(),
    /** The recipient row (campaign_recipients.id); not a foreign key, as campaign_events'. */
    recipientId: bigint('recipient_id', { mode: 'number' }).notNull(),
    type: text('type').notNull(),
    detail: text('detail'),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    leaseUntil: timestamp('lease_until', { withTimezone: true, mode: 'date' }),
    leaseToken: uuid('lease_token'),
  },
  (t) => [index('delivery_event_outbox_lease_idx').on(t.leaseUntil, t.id)],
);

/**
 * Events per campaign, minute and type, kept in the transactions that record the events: the delivery
 * log's chart reads at most a few thousand of these rows, never the events themselves.
 */
export const campaignEventMinutes = pgTable(
  'campaign_event_minutes',
  {
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    minute: timestamp('minute', { withTimezone: true, mode: 'date' }).notNull(),
    type: text('type').$type<CampaignEventType>().notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.minute, t.type] })],
);

/** The links of a campaign's e-mail, numbered; click redirects go only to these. */
export const campaignLinks = pgTable(
  'campaign_links',
  {
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    index: integer('index').notNull(),
    url: text('url').notNull(),
    clicks: integer('clicks').notNull().default(0),
    uniqueClicks: integer('unique_clicks').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.index] })],
);

/**
 * E-mails sent per tenant and UTC day (plan usage, spec section 3): a billing period's usage is the
 * sum of its days (at most 366 rows), whatever the period; kept in the transaction that marks the
 * recipients sent.
 */
export const emailUsage = pgTable(
  'email_usage',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    sent: integer('sent').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day] })],
);

export type CampaignRow = typeof campaigns.$inferSelect;

export type CampaignRecipientRow = typeof campaignRecipients.$inferSelect;

export type CampaignEventRow = typeof campaignEvents.$inferSelect;
