/**
 * The tables every area shares: tenants with their plan, their users (the accounts every area's rows
 * are created by and scoped to), and the request-rate windows of lib/window-throttle.ts. They live
 * in db/ rather than in one area because nearly every area's tables reference them and several areas
 * write them (tenants, team, auth, account, billing's checkout); an area's own tables live beside its
 * code (src/<area>/schema.ts), and db/schema.ts gathers them all.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { Feature, Permission, PlanKey, Role } from '../contracts';
import { createdAt } from './columns';

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

export type PlanRow = typeof plans.$inferSelect;

export type TenantRow = typeof tenants.$inferSelect;

export type UserRow = typeof users.$inferSelect;
