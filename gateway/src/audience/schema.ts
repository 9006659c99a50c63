/**
 * Audience's tables. Sized for a million contacts per tenant: every sortable column has an index that
 * starts with tenant_id and ends with id (stable pages), text sorts and prefix searches use
 * `COLLATE "C"` expressions so one index serves both, and counts that grids show unfiltered come from
 * counters kept by statement-level triggers (migration 0002), not from count(*).
 */
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
  AttributeType,
  AttributeValue,
  ContactSource,
  ContactStatus,
  ImportMode,
  ImportStatus,
  ImportTarget,
  SegmentGroup,
} from '../contracts';
import { createdAt, updatedAt } from '../db/columns';
import { tenants, users } from '../db/shared-schema';

export const contacts = pgTable(
  'contacts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    email: text('email'),
    /** EIP-55 checksummed. */
    wallet: text('wallet'),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    status: text('status').$type<ContactStatus>().notNull().default('subscribed'),
    source: text('source').$type<ContactSource>().notNull().default('manual'),
    /** Custom attribute values by attribute id (ids are never reused, so a deleted attribute's values are inert). */
    attributes: jsonb('attributes').$type<Record<string, AttributeValue>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('contacts_identity_check', sql`${t.email} is not null or ${t.wallet} is not null`),
    check('contacts_status_check', sql`${t.status} in ('subscribed', 'unsubscribed', 'bounced', 'complained')`),
    check('contacts_source_check', sql`${t.source} in ('import', 'widget', 'api', 'manual')`),
    // Uniqueness per tenant (NULLs never collide); also the prefix-search and sort indexes for e-mail and wallet.
    uniqueIndex('contacts_tenant_email_idx').on(t.tenantId, sql`(lower(${t.email}) collate "C")`),
    uniqueIndex('contacts_tenant_wallet_idx').on(t.tenantId, sql`(lower(${t.wallet}) collate "C")`),
    index('contacts_tenant_created_idx').on(t.tenantId, t.createdAt, t.id, t.status),
    index('contacts_tenant_updated_idx').on(t.tenantId, t.updatedAt, t.id, t.status),
    // The grid's total orders (key, id), each a walk of one index that also holds the column itself,
    // so page anchors (contact-anchors.ts) are built by an index-only scan: PostgreSQL only plans an
    // index-only scan over an expression when the expression's column is in the index too. E-mail
    // and wallet need these besides the unique indexes, which have no id to order ties (no value) by.
    // Every sort index ends with the status, so the grid filtered by a status walks them index-only too.
    index('contacts_tenant_email_order_idx').on(
      t.tenantId,
      sql`(lower(${t.email}) collate "C")`,
      t.id,
      t.email,
      t.status,
    ),
    index('contacts_tenant_wallet_order_idx').on(
      t.tenantId,
      sql`(lower(${t.wallet}) collate "C")`,
      t.id,
      t.wallet,
      t.status,
    ),
    index('contacts_tenant_last_name_idx').on(
      t.tenantId,
      sql`(lower(${t.lastName}) collate "C")`,
      t.id,
      t.lastName,
      t.status,
    ),
    // First name is searched, not sorted: the column itself makes a search's count an index-only scan.
    index('contacts_tenant_first_name_idx').on(t.tenantId, sql`(lower(${t.firstName}) collate "C")`, t.id, t.firstName),
  ],
);

/** Contacts per tenant and status, kept by triggers: the unfiltered and status-filtered grid counts. */
export const contactCounts = pgTable(
  'contact_counts',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    status: text('status').$type<ContactStatus>().notNull(),
    n: bigint('n', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.status] })],
);

/**
 * Contacts added and removed per tenant, UTC day and source, kept by statement-level triggers
 * (migration 0017): the overview's "contacts over time" and "by source" read days, not contacts.
 */
export const contactDays = pgTable(
  'contact_days',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    source: text('source').$type<ContactSource>().notNull(),
    added: integer('added').notNull().default(0),
    removed: integer('removed').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day, t.source] })],
);

export const lists = pgTable(
  'lists',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    autoimport: boolean('autoimport').notNull().default(false),
    /** Set when a community owns the list (spec sections 2 and 4); such lists are not offered as widget targets. */
    communityId: uuid('community_id'),
    /** Kept by triggers on list_members. */
    memberCount: integer('member_count').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('lists_tenant_name_idx').on(t.tenantId, sql`lower(${t.name})`),
    index('lists_tenant_created_idx').on(t.tenantId, t.createdAt, t.id),
  ],
);

export const listMembers = pgTable(
  'list_members',
  {
    listId: uuid('list_id')
      .notNull()
      .references(() => lists.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    addedAt: timestamp('added_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.listId, t.contactId] }), index('list_members_contact_idx').on(t.contactId)],
);

export const customAttributes = pgTable(
  'custom_attributes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    key: text('key').notNull(),
    type: text('type').$type<AttributeType>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('custom_attributes_tenant_key_idx').on(t.tenantId, t.key),
    uniqueIndex('custom_attributes_tenant_name_idx').on(t.tenantId, sql`lower(${t.name})`),
    check('custom_attributes_type_check', sql`${t.type} in ('text', 'number', 'date', 'boolean', 'wallet')`),
  ],
);

export const segments = pgTable(
  'segments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    rule: jsonb('rule').$type<SegmentGroup>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('segments_tenant_name_idx').on(t.tenantId, sql`lower(${t.name})`),
    index('segments_tenant_created_idx').on(t.tenantId, t.createdAt, t.id),
  ],
);

/**
 * CSV imports. The uploaded file is kept on disk (`file_path`); the job reads it from `byte_offset`.
 * Each batch commits its contacts, its failures and the new checkpoint in one transaction, so a job
 * cut off by a restart resumes from the last checkpoint: no row twice, none lost.
 */
export const importJobs = pgTable(
  'import_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    status: text('status').$type<ImportStatus>().notNull().default('uploaded'),
    fileName: text('file_name').notNull(),
    filePath: text('file_path').notNull(),
    totalBytes: bigint('total_bytes', { mode: 'number' }).notNull().default(0),
    byteOffset: bigint('byte_offset', { mode: 'number' }).notNull().default(0),
    rowsDone: integer('rows_done').notNull().default(0),
    createdCount: integer('created_count').notNull().default(0),
    updatedCount: integer('updated_count').notNull().default(0),
    skippedCount: integer('skipped_count').notNull().default(0),
    failedCount: integer('failed_count').notNull().default(0),
    mapping: jsonb('mapping').$type<ImportTarget[]>().notNull().default([]),
    hasHeader: boolean('has_header').notNull().default(true),
    mode: text('mode').$type<ImportMode>().notNull().default('update'),
    listId: uuid('list_id').references(() => lists.id, { onDelete: 'set null' }),
    error: text('error'),
    /** Set while a runner owns the job; a stale one (runner gone) lets another runner resume it. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    /** When the audience was taken into `campaign_recipients` (null: not yet; the snapshot is done once). */
    audienceTakenAt: timestamp('audience_taken_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('import_jobs_tenant_created_idx').on(t.tenantId, t.createdAt, t.id),
    index('import_jobs_status_idx').on(t.status),
    check(
      'import_jobs_status_check',
      sql`${t.status} in ('uploaded', 'queued', 'running', 'completed', 'failed', 'cancelled')`,
    ),
    check('import_jobs_mode_check', sql`${t.mode} in ('update', 'skip')`),
  ],
);

/**
 * Import uploads in flight: the bytes each may still write, reserved against the tenant's upload limit
 * (audience/import/upload-quota.ts) until the upload becomes an import job or fails.
 */
export const importUploads = pgTable(
  'import_uploads',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('import_uploads_tenant_idx').on(t.tenantId)],
);

/** Failed rows of an import, with their reasons: the downloadable report. */
export const importFailures = pgTable(
  'import_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    jobId: uuid('job_id')
      .notNull()
      .references(() => importJobs.id, { onDelete: 'cascade' }),
    /** 1-based line of the file the row started on. */
    rowNumber: integer('row_number').notNull(),
    reason: text('reason').notNull(),
    /** The row as read, cut to 1,000 characters. */
    raw: text('raw').notNull().default(''),
  },
  (t) => [index('import_failures_job_idx').on(t.jobId, t.rowNumber)],
);

export type ContactRow = typeof contacts.$inferSelect;

export type ListRow = typeof lists.$inferSelect;

export type CustomAttributeRow = typeof customAttributes.$inferSelect;

export type SegmentRow = typeof segments.$inferSelect;

export type ImportJobRow = typeof importJobs.$inferSelect;
