/**
 * A community's team members (Manage Users, spec section 2 account/users): the grid, access changes
 * and removal. Every statement is scoped by the caller's tenant. A community keeps at least one owner
 * (role tenant_admin): changes that would leave none are refused under a lock on the tenant's owners,
 * so two owners demoting each other at once cannot both succeed.
 */
import { and, asc, count, desc, eq, ilike, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  type Feature,
  grantRefusal,
  presetAccess,
  presetOf,
  type TeamAccessBody,
  type TeamListQuery,
  type TeamMember,
} from '../contracts';
import type { Database } from '../db/index';
import { users } from '../db/schema';
import { actorOf, recordTeamEvent, sessionChanged, type AuthContext } from '../auth';
import { badRequest, notFound } from '../errors';
import { isUuid } from '../lib/db-helpers';
import { likePattern, pageWindow } from '../lib/pagination';

export const LAST_OWNER = 'A community needs at least one owner.';
export const NOT_YOURSELF = 'You cannot remove yourself.';
const NO_MEMBER = 'This member does not exist.';

type MemberRow = Pick<
  typeof users.$inferSelect,
  | 'id'
  | 'email'
  | 'firstName'
  | 'lastName'
  | 'avatar'
  | 'role'
  | 'permissions'
  | 'emailConfirmedAt'
  | 'lastSignInAt'
  | 'createdAt'
>;

const memberColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  avatar: users.avatar,
  role: users.role,
  permissions: users.permissions,
  emailConfirmedAt: users.emailConfirmedAt,
  lastSignInAt: users.lastSignInAt,
  createdAt: users.createdAt,
};

export function toTeamMember(row: MemberRow, features: readonly Feature[]): TeamMember {
  return {
    _id: row.id,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    avatar: row.avatar,
    role: row.role,
    permissions: row.permissions,
    preset: presetOf(row.role, row.permissions, features),
    status: row.emailConfirmedAt ? 'active' : 'unconfirmed',
    last_sign_in_at: row.lastSignInAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

/** One page of the team (search on e-mail and names). A team is small: count and offset stay cheap. */
export async function listMembers(
  db: Database,
  tenantId: string,
  features: readonly Feature[],
  q: TeamListQuery,
): Promise<{ records: TeamMember[]; count: number }> {
  const conditions: SQL[] = [eq(users.tenantId, tenantId)];
  const search = q.searchString.trim();
  if (search) {
    const p = likePattern(search);
    const match = or(ilike(users.email, p), ilike(users.firstName, p), ilike(users.lastName, p));
    if (match) conditions.push(match);
  }
  const where = and(...conditions);
  const [total] = await db.select({ n: count() }).from(users).where(where);
  const direction = q.sortOrder === 'asc' ? asc : desc;
  const key =
    q.sortField === 'email'
      ? users.email
      : q.sortField === 'last_sign_in_at'
        ? sql`coalesce(${users.lastSignInAt}, '-infinity'::timestamptz)`
        : users.createdAt;
  const { offset, limit } = pageWindow(q.page, q.perPage);
  const rows = await db
    .select(memberColumns)
    .from(users)
    .where(where)
    .orderBy(direction(key), direction(users.id))
    .limit(limit)
    .offset(offset);
  return { records: rows.map((r) => toTeamMember(r, features)), count: total?.n ?? 0 };
}

/** Locks the tenant's owners for the rest of the transaction and answers their ids. */
async function lockOwners(tx: Database, tenantId: string): Promise<string[]> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.role, 'tenant_admin')))
    .orderBy(users.id) // one order for every locker: no deadlock between two changes
    .for('update');
  return rows.map((r) => r.id);
}

function memberId(id: string): string {
  if (!isUuid(id)) throw notFound(NO_MEMBER);
  return id;
}

/**
 * Gives a member the access of a preset (spec section 6 vocabulary, presets in access/team.ts). The
 * member's sessions see it on their next request (the session cache drops them at once). Yourself
 * too: an owner may step down while another owner remains.
 */
export async function changeMemberAccess(
  db: Database,
  auth: AuthContext,
  tenantId: string,
  member: string,
  body: TeamAccessBody,
): Promise<TeamMember> {
  const id = memberId(member);
  const access = presetAccess(body.preset, auth.features, body.permissions);
  const refusal = grantRefusal({ role: auth.user.role, permissions: auth.permissions }, access, auth.features);
  if (refusal) throw badRequest(refusal.message, { [refusal.field]: [refusal.message] });
  const row = await db.transaction(async (tx) => {
    const owners = await lockOwners(tx, tenantId);
    const [current] = await tx
      .select({ role: users.role, email: users.email })
      .from(users)
      .where(and(eq(users.id, id), eq(users.tenantId, tenantId)));
    if (!current) throw notFound(NO_MEMBER);
    // Taking owner rights away is an owner's decision, like giving them.
    if (current.role === 'tenant_admin' && access.role !== 'tenant_admin') {
      // Whether the caller is an owner now (under the lock), not when their session was loaded.
      if (!owners.includes(auth.user.id)) {
        throw badRequest('Only an owner can change an owner.', { preset: ['Only an owner can change an owner.'] });
      }
      if (owners.filter((o) => o !== id).length === 0) throw badRequest(LAST_OWNER, { preset: [LAST_OWNER] });
    }
    const [updated] = await tx
      .update(users)
      .set({ role: access.role, permissions: access.permissions })
      .where(and(eq(users.id, id), eq(users.tenantId, tenantId)))
      .returning(memberColumns);
    // The team's activity: who gave whom which access.
    await recordTeamEvent(tx, {
      tenantId,
      kind: 'access_changed',
      actor: actorOf(auth),
      subject: { id, email: current.email },
      preset: body.preset,
    });
    return updated;
  });
  if (!row) throw notFound(NO_MEMBER);
  sessionChanged(db, `user:${id}`);
  return toTeamMember(row, auth.features);
}

/** Removes a member: their account goes, and with it every session of theirs, at once. */
export async function removeMember(db: Database, auth: AuthContext, tenantId: string, member: string): Promise<void> {
  const id = memberId(member);
  if (id === auth.user.id) throw badRequest(NOT_YOURSELF);
  await db.transaction(async (tx) => {
    const owners = await lockOwners(tx, tenantId);
    const [current] = await tx
      .select({ role: users.role, email: users.email })
      .from(users)
      .where(and(eq(users.id, id), eq(users.tenantId, tenantId)));
    if (!current) throw notFound(NO_MEMBER);
    if (current.role === 'tenant_admin') {
      if (!owners.includes(auth.user.id)) throw badRequest('Only an owner can remove an owner.');
      if (owners.filter((o) => o !== id).length === 0) throw badRequest(LAST_OWNER);
    }
    await tx.delete(users).where(and(eq(users.id, id), eq(users.tenantId, tenantId), ne(users.id, auth.user.id)));
    // The team's activity: who removed whom (the account is gone; its address is kept here).
    await recordTeamEvent(tx, {
      tenantId,
      kind: 'removed',
      actor: actorOf(auth),
      subject: { id: null, email: current.email },
    });
  });
  sessionChanged(db, `user:${id}`);
}
