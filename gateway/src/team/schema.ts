/** The team area's table: invitations to a community's team. */
import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { Permission, Role, TeamEventKind, TeamPreset } from '../contracts';
import { createdAt } from '../db/columns';
import { tenants, users } from '../db/shared-schema';

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
 * The team's activity (owners read it, GET /v1/team-events): who invited, changed access, removed,
 * impersonated, changed a password or an e-mail address in a community, and when. Addresses are kept
 * as they were, so a row still reads right after the accounts change or go.
 */
export const teamEvents = pgTable(
  'team_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<TeamEventKind>().notNull(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorEmail: text('actor_email'),
    subjectId: uuid('subject_id').references(() => users.id, { onDelete: 'set null' }),
    subjectEmail: text('subject_email').notNull(),
    preset: text('preset').$type<TeamPreset>(),
    previousEmail: text('previous_email'),
    createdAt: createdAt(),
  },
  (t) => [
    index('team_events_tenant_created_idx').on(t.tenantId, t.createdAt, t.id),
    check(
      'team_events_kind_check',
      sql`${t.kind} in ('invited', 'access_changed', 'removed', 'impersonated', 'password_changed', 'email_changed')`,
    ),
  ],
);

export type TeamEventRow = typeof teamEvents.$inferSelect;
