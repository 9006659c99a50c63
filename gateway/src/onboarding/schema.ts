/** Onboarding's tables (spec sections 2 and 4): the community page, uploads, widgets and the public sign-up. */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { UploadPurpose, WidgetType } from '../contracts';
import { createdAt, updatedAt } from '../db/columns';
import { lists } from '../audience/schema';
import { tenants, users } from '../db/shared-schema';

/** One community per tenant: its public page (/c/{slug}) and the texts and images on it. */
export const communities = pgTable(
  'communities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    shortDescription: text('short_description').notNull().default(''),
    whatYouGet: text('what_you_get')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    slug: text('slug').notNull(),
    logo: text('logo'),
    background: text('background'),
    priority: integer('priority').notNull().default(0),
    show: boolean('show').notNull().default(false),
    carouselPriority: integer('carousel_priority').notNull().default(0),
    showOnCarousel: boolean('show_on_carousel').notNull().default(false),
    public: boolean('public').notNull().default(false),
    /** Where sign-ups from the public page land (a list tied to the community). */
    listId: uuid('list_id').references(() => lists.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('communities_tenant_idx').on(t.tenantId),
    uniqueIndex('communities_slug_idx').on(sql`lower(${t.slug})`),
    check('communities_priority_check', sql`${t.priority} between 0 and 100`),
    check('communities_carousel_priority_check', sql`${t.carouselPriority} between 0 and 100`),
  ],
);

/**
 * Uploaded files (images): one row per presigned PUT. The URL is single-purpose (this key, this type,
 * until expires_at); `stored_at` is set once the bytes were accepted. Each upload has one owner: the
 * tenant of the user who asked for it, or that user when they have no tenant (a global admin's avatar);
 * an upload is usable only by its owner (storage/upload-owner.ts).
 */
export const uploads = pgTable(
  'uploads',
  {
    fileKey: text('file_key').primaryKey(),
    tenantId: uuid('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    contentType: text('content_type').notNull(),
    size: integer('size'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    storedAt: timestamp('stored_at', { withTimezone: true, mode: 'date' }),
    /** What the image is for ('template_image': offered again in the designer's library); null for the others. */
    purpose: text('purpose').$type<UploadPurpose>(),
    /** The file's name as uploaded (names the image in the designer's library). */
    name: text('name'),
    createdAt: createdAt(),
  },
  (t) => [
    index('uploads_tenant_idx').on(t.tenantId),
    index('uploads_tenant_purpose_idx').on(t.tenantId, t.purpose, t.storedAt),
    index('uploads_user_idx').on(t.userId),
    check('uploads_one_owner_check', sql`num_nonnulls(${t.tenantId}, ${t.userId}) = 1`),
  ],
);

export const widgets = pgTable(
  'widgets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    type: text('type').$type<WidgetType>().notNull(),
    /** The target list; a widget whose list is deleted goes with it. */
    targetId: uuid('target_id')
      .notNull()
      .references(() => lists.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    /** Sign-ups through the widget (confirmed e-mails and verified wallets). */
    signups: integer('signups').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('widgets_tenant_created_idx').on(t.tenantId, t.createdAt, t.id),
    check('widgets_type_check', sql`${t.type} in ('Subscription Widget', 'Login Widget')`),
  ],
);

/**
 * Public sign-ups waiting for something: an e-mail address until its confirmation link is opened
 * (double opt-in), a wallet challenge until it is signed. Only the token's hash is stored.
 */
export const pendingSignups = pgTable(
  'pending_signups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    widgetId: uuid('widget_id')
      .notNull()
      .references(() => widgets.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'email' | 'wallet_challenge'>().notNull(),
    /** The e-mail address, or the challenge's nonce. */
    subject: text('subject').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('pending_signups_token_idx').on(t.tokenHash),
    index('pending_signups_widget_idx').on(t.widgetId, t.kind, t.subject),
    check('pending_signups_kind_check', sql`${t.kind} in ('email', 'wallet_challenge')`),
  ],
);

export type CommunityRow = typeof communities.$inferSelect;

export type WidgetRow = typeof widgets.$inferSelect;
