import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { Feature, Permission, PlanKey, Role } from '../contracts';

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
    createdAt: createdAt(),
  },
  (t) => [index('tenants_created_at_idx').on(t.createdAt), index('tenants_name_idx').on(t.name)],
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
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    index('users_tenant_id_idx').on(t.tenantId),
    check('users_role_check', sql`${t.role} in ('super_admin', 'global_admin', 'tenant_admin', 'staff')`),
  ],
);

/** Failed sign-ins, for throttling per account and per client address. */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    address: text('address').notNull(),
    /** Set when the account signs in successfully: the failure no longer counts for the account. */
    accountCleared: boolean('account_cleared').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('login_attempts_email_idx').on(t.email, t.createdAt),
    index('login_attempts_address_idx').on(t.address, t.createdAt),
  ],
);

export const ONE_TIME_TOKEN_PURPOSES = ['password_reset', 'email_confirmation'] as const;
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
    check('one_time_tokens_purpose_check', sql`${t.purpose} in ('password_reset', 'email_confirmation')`),
  ],
);

export type PlanRow = typeof plans.$inferSelect;
export type TenantRow = typeof tenants.$inferSelect;
export type UserRow = typeof users.$inferSelect;
