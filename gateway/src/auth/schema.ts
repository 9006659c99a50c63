/** Auth's tables: the password-guessing records, one-time tokens and signed-out tokens. */
import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../db/columns';
import { users } from '../db/shared-schema';

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

/**
 * `email_change` confirms a new sign-in address (users.pending_email) from that address; `sign_in_link`
 * signs in from an e-mailed link while the account's guessing limit is reached (auth/sign-in-link.ts).
 */
export const ONE_TIME_TOKEN_PURPOSES = [
  'password_reset',
  'email_confirmation',
  'email_change',
  'sign_in_link',
] as const;

export type OneTimeTokenPurpose = (typeof ONE_TIME_TOKEN_PURPOSES)[number];

/** Password-reset, e-mail-confirmation and sign-in-link tokens; only a SHA-256 of the token is stored. */
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
      sql`${t.purpose} in ('password_reset', 'email_confirmation', 'email_change', 'sign_in_link')`,
    ),
  ],
);

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
