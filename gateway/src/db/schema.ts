import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  numeric,
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
  AttributeType,
  AttributeValue,
  BillingPeriod,
  ContactSource,
  ContactStatus,
  Feature,
  ImportMode,
  ImportStatus,
  ImportTarget,
  Permission,
  PlanKey,
  Role,
  SegmentGroup,
  TemplateKind,
  WidgetType,
} from '../contracts';

// Keep this SQL plain PostgreSQL 15 (Debian's server) and PGlite (Postgres 18): no 16+-only features.

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const plans = pgTable('plans', {
  id: uuid('id').primaryKey().defaultRandom(),
  key: text('key').$type<PlanKey>().notNull().unique(),
  name: text('name').notNull(),
  label: text('label').notNull().default(''),
  features: text('features')
    .array()
    .$type<Feature[]>()
    .notNull()
    .default(sql`'{}'::text[]`),
  /** The feature texts of the plan card (billing, spec section 2); `features` above are the console features granted. */
  cardFeatures: text('card_features')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  createdAt: createdAt(),
});

export const tenants = pgTable(
  'tenants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    planId: uuid('plan_id')
      .notNull()
      .references(() => plans.id),
    stripeCustomerId: text('stripe_customer_id'),
    lastWarningSentDate: date('last_warning_sent_date', { mode: 'string' }),
    lastLimitSentDate: date('last_limit_sent_date', { mode: 'string' }),
    /**
     * The community's postal address, printed in the footer of marketing e-mails (merge tag
     * `community.postal_address`; anti-spam laws ask for one). Edited in General Settings.
     */
    postalAddress: text('postal_address'),
    /** General Settings: the sender name a new e-mail starts with (null: the community's title). */
    defaultSenderName: text('default_sender_name'),
    /** General Settings: the reply-to address a new e-mail starts with (null: none). */
    defaultReplyTo: text('default_reply_to'),
    /** General Settings: the IANA time zone schedules are shown in for members without their own. */
    timeZone: text('time_zone').notNull().default('UTC'),
    /** Platform admin settings: an e-mail volume that replaces the plan's for this tenant (null: the plan's). */
    emailVolumeOverride: integer('email_volume_override'),
    /** Platform admin settings: no campaign of this tenant sends while set (sends wait, nothing is lost). */
    sendingPaused: boolean('sending_paused').notNull().default(false),
    /** Platform admin settings: applets enabled for this tenant beyond those its plan includes. */
    enabledApplets: uuid('enabled_applets')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    /**
     * Set when a platform admin deletes the tenant: from then on it is gone for every reader (lists,
     * sign-in, sessions) while a background job removes its data in slices.
     */
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('tenants_created_at_idx').on(t.createdAt),
    index('tenants_name_idx').on(t.name),
    check('tenants_email_volume_override_check', sql`${t.emailVolumeOverride} >= 0`),
  ],
);

/**
 * An applet: an add-on screen the platform offers to tenants, loaded at run time as a Module Federation
 * remote from `manifestUrl` (its `mf-manifest.json`), exposing `module` (e.g. `./Page`). Tenants whose
 * plan is in `planIds`, or whose settings enable it, find it in their sidebar under "Apps" while it is
 * enabled.
 */
export const applets = pgTable(
  'applets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    description: text('description').notNull().default(''),
    /** An image URL (uploaded or external https), or null for the default icon. */
    icon: text('icon'),
    manifestUrl: text('manifest_url').notNull(),
    module: text('module').notNull(),
    planIds: uuid('plan_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('applets_slug_idx').on(t.slug), index('applets_created_at_idx').on(t.createdAt)],
);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    avatar: text('avatar'),
    role: text('role').$type<Role>().notNull(),
    permissions: text('permissions')
      .array()
      .$type<Permission[]>()
      .notNull()
      .default(sql`'{}'::text[]`),
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true, mode: 'date' }),
    /** Tokens carry this number (claim `ver`); raising it (password change) ends every session. */
    tokenVersion: integer('token_version').notNull().default(0),
    /** Set by every successful sign-in (the team grid's "Last sign-in"). */
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true, mode: 'date' }),
    /** Profile: the IANA time zone used when this member schedules (null: the community's). */
    timeZone: text('time_zone'),
    /**
     * Profile: a new sign-in address waiting to be confirmed from itself (an `email_change` token);
     * the address in `email` stays the sign-in address until then.
     */
    pendingEmail: text('pending_email'),
    createdAt: createdAt(),
  },
  (t) => [
    /**
     * One account per address and community: a person in several communities has an account in each
     * (auth/communities.ts keeps their password and address the same). Platform admins (no tenant)
     * count as one community.
     */
    uniqueIndex('users_email_tenant_idx').on(
      sql`lower(${t.email})`,
      sql`coalesce(${t.tenantId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
    ),
    index('users_tenant_id_idx').on(t.tenantId),
    check('users_role_check', sql`${t.role} in ('super_admin', 'global_admin', 'tenant_admin', 'staff')`),
  ],
);

/**
 * Password checks that failed (or are still running: a check counts as a failure until it succeeds), for
 * the guessing limits per account and per client address (auth/guess-policy.ts).
 */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    address: text('address').notNull(),
    /**
     * Set when the account later signed in from the same address: the failure was a typo of the owner's and
     * no longer takes that address's trust away (it still counts towards the account's hourly limit).
     */
    forgiven: boolean('forgiven').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('login_attempts_email_idx').on(t.email, t.createdAt),
    index('login_attempts_address_idx').on(t.address, t.createdAt),
  ],
);

/** Client addresses an account signed in from (or reset its password from): its known-good addresses. */
export const loginKnownAddresses = pgTable(
  'login_known_addresses',
  {
    email: text('email').notNull(),
    address: text('address').notNull(),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.email, t.address] }),
    index('login_known_addresses_last_success_idx').on(t.lastSuccessAt),
  ],
);

/** `email_change` confirms a new sign-in address (users.pending_email) from that address. */
export const ONE_TIME_TOKEN_PURPOSES = ['password_reset', 'email_confirmation', 'email_change'] as const;
export type OneTimeTokenPurpose = (typeof ONE_TIME_TOKEN_PURPOSES)[number];

/** Password-reset and e-mail-confirmation tokens; only a SHA-256 of the token is stored. */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<OneTimeTokenPurpose>().notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('one_time_tokens_hash_idx').on(t.tokenHash),
    index('one_time_tokens_user_idx').on(t.userId, t.purpose),
    check(
      'one_time_tokens_purpose_check',
      sql`${t.purpose} in ('password_reset', 'email_confirmation', 'email_change')`,
    ),
  ],
);

/**
 * Invitations to a community's team (Manage Users): the role and permissions the person gets, and
 * the hash of the link's token (a leaked table gives no working links). Pending while neither
 * accepted nor revoked; a pending invitation past `expires_at` is expired (resending renews it).
 * One pending invitation per address and community.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role').$type<Role>().notNull(),
    permissions: text('permissions')
      .array()
      .$type<Permission[]>()
      .notNull()
      .default(sql`'{}'::text[]`),
    tokenHash: text('token_hash').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('invitations_token_hash_idx').on(t.tokenHash),
    uniqueIndex('invitations_pending_email_idx')
      .on(t.tenantId, sql`lower(${t.email})`)
      .where(sql`${t.acceptedAt} is null and ${t.revokedAt} is null`),
    check('invitations_role_check', sql`${t.role} in ('tenant_admin', 'staff')`),
  ],
);
export type InvitationRow = typeof invitations.$inferSelect;

/**
 * Custom sending domains (account/custom-domains, permission manage_domains, plan feature
 * custom_domains): the DNS records a tenant publishes and what the last check found. The DKIM key is
 * generated per domain (RSA-2048); its public half is the DKIM TXT record. A domain verified by one
 * tenant cannot be verified by another (partial unique index).
 */
export const sendingDomains = pgTable(
  'sending_domains',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** Lower case, internationalised names in punycode (ASCII). */
    domain: text('domain').notNull(),
    /** The value of the verification TXT record. */
    verificationToken: text('verification_token').notNull(),
    dkimSelector: text('dkim_selector').notNull(),
    /** PKCS#8 PEM. */
    dkimPrivateKey: text('dkim_private_key').notNull(),
    /** Base64 SubjectPublicKeyInfo (DER): the `p=` of the DKIM record. */
    dkimPublicKey: text('dkim_public_key').notNull(),
    /** 'pending' until every required record verifies; 'failed' when a verified domain stopped verifying. */
    status: text('status').$type<'pending' | 'verified' | 'failed'>().notNull().default('pending'),
    /** What the last check found per record (domains/records.ts). */
    checks: jsonb('checks').$type<unknown>(),
    verifiedAt: timestamp('verified_at', { withTimezone: true, mode: 'date' }),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('sending_domains_tenant_domain_idx').on(t.tenantId, t.domain),
    uniqueIndex('sending_domains_verified_idx')
      .on(t.domain)
      .where(sql`${t.status} = 'verified'`),
    check('sending_domains_status_check', sql`${t.status} in ('pending', 'verified', 'failed')`),
  ],
);
export type SendingDomainRow = typeof sendingDomains.$inferSelect;

/**
 * Tokens ended by a sign-out (POST /v1/auth/logout), by their `jti`, until they would have expired
 * anyway. A row's insert is announced on `console_session` (migration 0012) to every gateway process.
 */
export const revokedTokens = pgTable(
  'revoked_tokens',
  {
    jti: text('jti').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('revoked_tokens_expires_idx').on(t.expiresAt)],
);

// ---------------------------------------------------------------------------------------------
// Audience. Sized for a million contacts per tenant: every sortable column has an index
// that starts with tenant_id and ends with id (stable pages), text sorts and prefix searches use
// `COLLATE "C"` expressions so one index serves both, and counts that grids show unfiltered come
// from counters kept by statement-level triggers (migration 0002), not from count(*).
// ---------------------------------------------------------------------------------------------

const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

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

// ---------------------------------------------------------------------------------------------
// Onboarding (spec sections 2 and 4): the community page, uploads, widgets and the public sign-up
// ---------------------------------------------------------------------------------------------

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
 * Uploaded files (images) of the local storage: one row per presigned PUT. The URL is single-purpose
 * (this key, this type, until expires_at); `stored_at` is set once the bytes were accepted.
 */
export const uploads = pgTable(
  'uploads',
  {
    fileKey: text('file_key').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    contentType: text('content_type').notNull(),
    size: integer('size'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    storedAt: timestamp('stored_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [index('uploads_tenant_idx').on(t.tenantId)],
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

/** Fixed-window counters for the public endpoints (per address, per widget), kept in the database. */
export const publicThrottle = pgTable(
  'public_throttle',
  {
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true, mode: 'date' }).notNull(),
    hits: integer('hits').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

// ---------------------------------------------------------------------------------------------
// Billing (spec sections 3, 4 and 9): the price catalogue and the local billing provider's state
// ---------------------------------------------------------------------------------------------

/** One price of a plan's pricing option for one period (the catalogue of spec section 9, see billing/catalogue.ts). */
export const planPrices = pgTable(
  'plan_prices',
  {
    /** The payment provider's price id, e.g. price_startup3_monthly. */
    priceId: text('price_id').primaryKey(),
    planId: uuid('plan_id')
      .notNull()
      .references(() => plans.id, { onDelete: 'cascade' }),
    /** The pricing option, e.g. startup3. */
    optionKey: text('option_key').notNull(),
    /** 0-based order of the option within its plan. */
    position: integer('position').notNull(),
    /** The volume as the cards show it ('10.000'). */
    emails: text('emails').notNull(),
    emailLimit: integer('email_limit').notNull(),
    period: text('period').$type<BillingPeriod>().notNull(),
    /** Cents for the whole period. */
    amountCents: integer('amount_cents').notNull(),
  },
  (t) => [
    uniqueIndex('plan_prices_option_period_idx').on(t.optionKey, t.period),
    index('plan_prices_plan_idx').on(t.planId, t.position),
    check('plan_prices_period_check', sql`${t.period} in ('monthly', 'semiAnnual', 'yearly')`),
    check('plan_prices_amount_check', sql`${t.amountCents} >= 0`),
  ],
);

/** A tenant's billing settings: tax rate and payment method (local provider). */
export const billingAccounts = pgTable(
  'billing_accounts',
  {
    tenantId: uuid('tenant_id')
      .primaryKey()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** Percent, e.g. 21.00. */
    taxRate: numeric('tax_rate', { precision: 5, scale: 2, mode: 'number' }).notNull().default(0),
    /** 'Visa •••• 4242'; null: no payment method. */
    paymentMethodLabel: text('payment_method_label'),
    /** A method that declines every charge (set from the local billing portal). */
    paymentMethodFailing: boolean('payment_method_failing').notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [check('billing_accounts_tax_rate_check', sql`${t.taxRate} >= 0 and ${t.taxRate} <= 100`)],
);

/** One subscription per tenant: its current price and period, and a downgrade scheduled for the period end. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    priceId: text('price_id')
      .notNull()
      .references(() => planPrices.priceId),
    periodStart: timestamp('period_start', { withTimezone: true, mode: 'date' }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true, mode: 'date' }).notNull(),
    status: text('status').$type<'active' | 'canceled'>().notNull().default('active'),
    scheduledPriceId: text('scheduled_price_id').references(() => planPrices.priceId),
    /** When the scheduled change takes effect (the period end it was scheduled for). */
    scheduledAt: timestamp('scheduled_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('subscriptions_tenant_idx').on(t.tenantId),
    index('subscriptions_period_end_idx').on(t.periodEnd),
    check('subscriptions_status_check', sql`${t.status} in ('active', 'canceled')`),
    check('subscriptions_period_check', sql`${t.periodEnd} > ${t.periodStart}`),
  ],
);

export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** The price the invoice was for. */
    priceId: text('price_id').references(() => planPrices.priceId),
    description: text('description').notNull(),
    subtotalCents: integer('subtotal_cents').notNull(),
    taxCents: integer('tax_cents').notNull(),
    totalCents: integer('total_cents').notNull(),
    status: text('status').$type<'paid' | 'failed'>().notNull(),
    /** A client's Idempotency-Key or a renewal's key: one charge per key and tenant. */
    idempotencyKey: text('idempotency_key'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('invoices_tenant_idempotency_idx').on(t.tenantId, t.idempotencyKey),
    index('invoices_tenant_created_idx').on(t.tenantId, t.createdAt, t.id),
    check('invoices_status_check', sql`${t.status} in ('paid', 'failed')`),
  ],
);

export type PlanPriceRow = typeof planPrices.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;

export type ContactRow = typeof contacts.$inferSelect;
export type ListRow = typeof lists.$inferSelect;
export type CustomAttributeRow = typeof customAttributes.$inferSelect;
export type SegmentRow = typeof segments.$inferSelect;
export type ImportJobRow = typeof importJobs.$inferSelect;

export type PlanRow = typeof plans.$inferSelect;
export type TenantRow = typeof tenants.$inferSelect;
export type UserRow = typeof users.$inferSelect;
export type CommunityRow = typeof communities.$inferSelect;
export type WidgetRow = typeof widgets.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Checkout (spec sections 3, 4 and 9): a new customer's subscription, started without a session
// ---------------------------------------------------------------------------------------------

export const CHECKOUT_STATUSES = ['pending', 'paid', 'expired'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

/**
 * A checkout started from /checkout/:price_id: the order and the future owner's account (the password
 * only as its argon2id hash, cleared once the account exists or the checkout expires). Paying creates
 * the tenant, its owner, billing account, subscription and invoice in one transaction and sets
 * `tenant_id`/`user_id`. `complete_secret_hash` (SHA-256) keys the one sign-in after payment to the
 * browser that started the checkout.
 */
export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    priceId: text('price_id')
      .notNull()
      .references(() => planPrices.priceId),
    tenantName: text('tenant_name').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    completeSecretHash: text('complete_secret_hash').notNull(),
    status: text('status').$type<CheckoutStatus>().notNull().default('pending'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    tenantId: uuid('tenant_id').references(() => tenants.id, { onDelete: 'set null' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    paidAt: timestamp('paid_at', { withTimezone: true, mode: 'date' }),
    /** When the one sign-in after payment was handed out. */
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('checkout_sessions_expires_idx').on(t.status, t.expiresAt),
    check('checkout_sessions_status_check', sql`${t.status} in ('pending', 'paid', 'expired')`),
  ],
);

export type CheckoutSessionRow = typeof checkoutSessions.$inferSelect;

// ---------------------------------------------------------------------------------------------
// E-mail templates (spec section 2: engagement/templates and the template designer)
// ---------------------------------------------------------------------------------------------

/** A template: its name and kind, and which of its versions is current (the content lives in the versions). */
export const templates = pgTable(
  'templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    kind: text('kind').$type<TemplateKind>().notNull().default('marketing'),
    /** The current version's subject and preview text, for the grid (copied with every save). */
    subject: text('subject').notNull().default(''),
    previewText: text('preview_text').notNull().default(''),
    /** The current version. A save made on a stale version is kept as a newer version that is not current. */
    version: integer('version').notNull().default(1),
    /** The highest version number given out (versions are numbered 1, 2, ... per template). */
    lastVersion: integer('last_version').notNull().default(1),
    /**
     * A template of the platform tenant that every community finds in its starter gallery (set by
     * super admins from the platform's Templates screen); meaningless for other tenants' templates.
     */
    inGallery: boolean('in_gallery').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('templates_gallery_idx')
      .on(t.tenantId, sql`lower(${t.name})`)
      .where(sql`${t.inGallery}`),
    index('templates_tenant_updated_idx').on(t.tenantId, t.updatedAt, t.id),
    index('templates_tenant_created_idx').on(t.tenantId, t.createdAt, t.id),
    index('templates_tenant_name_idx').on(t.tenantId, sql`lower(${t.name})`, t.id),
    check('templates_kind_check', sql`${t.kind} in ('marketing', 'transactional')`),
  ],
);

/** Every content save of a template; the last TEMPLATE_LIMITS.versionsKept (and the current one) are kept. */
export const templateVersions = pgTable(
  'template_versions',
  {
    templateId: uuid('template_id')
      .notNull()
      .references(() => templates.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    subject: text('subject').notNull(),
    previewText: text('preview_text').notNull(),
    mjml: text('mjml').notNull(),
    /** The designer's project data (GrapesJS), or null for a template made from MJML alone. */
    project: jsonb('project').$type<Record<string, unknown>>(),
    /** The MJML compiled to HTML with the merge tags left as written, and the plain-text part made from it. */
    html: text('html').notNull(),
    text: text('text').notNull(),
    /** What compiled `html` (renderer revision and public address): another key compiles it again. */
    compiledWith: text('compiled_with').notNull(),
    createdAt: createdAt(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [primaryKey({ columns: [t.templateId, t.version] })],
);

export type TemplateRow = typeof templates.$inferSelect;
export type TemplateVersionRow = typeof templateVersions.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Campaigns and their delivery (spec section 2: engagement/emails, compose, log)
// ---------------------------------------------------------------------------------------------

/** An e-mail to the community's audience: a draft, then scheduled, sending, sent (or paused, cancelled, failed). */
export const campaigns = pgTable(
  'campaigns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
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
  },
  (t) => [
    uniqueIndex('campaign_recipients_address_idx').on(t.campaignId, t.address),
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
 * takes the lease over (deletes it and settles its rows), and the late writes of the old holder match
 * no row.
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
