/** The API access area's tables: a tenant's keys and their audit list. */
import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { ApiKeyEventKind, ApiKeyScope } from '../contracts';
import { createdAt } from '../db/columns';
import { tenants, users } from '../db/shared-schema';

/**
 * A tenant's API keys. Only the SHA-256 of the secret is stored (a secret of 32 random bytes needs no
 * slow hash: nothing can be guessed from it); `prefix` (`ck_live_` and the secret's next 8 characters)
 * tells keys apart in lists. Keys are revoked, never deleted, so the audit list keeps its names.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    scope: text('scope').$type<ApiKeyScope>().notNull(),
    prefix: text('prefix').notNull(),
    secretHash: text('secret_hash').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdByEmail: text('created_by_email'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    lastUsedIp: text('last_used_ip'),
  },
  (t) => [
    uniqueIndex('api_keys_secret_hash_idx').on(t.secretHash),
    index('api_keys_tenant_created_idx').on(t.tenantId, t.createdAt, t.id),
    check('api_keys_scope_check', sql`${t.scope} in ('full', 'sending', 'contacts')`),
  ],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/**
 * What happened to a tenant's keys: created, used for the first time, revoked, expired. Each happens
 * once to a key (one row per key and kind), so a lazily written "expired" cannot be written twice.
 */
export const apiKeyEvents = pgTable(
  'api_key_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<ApiKeyEventKind>().notNull(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorEmail: text('actor_email'),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('api_key_events_key_kind_idx').on(t.keyId, t.kind),
    index('api_key_events_tenant_created_idx').on(t.tenantId, t.createdAt, t.id),
    check('api_key_events_kind_check', sql`${t.kind} in ('created', 'first_used', 'revoked', 'expired')`),
  ],
);

export type ApiKeyEventRow = typeof apiKeyEvents.$inferSelect;
