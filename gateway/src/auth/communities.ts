/**
 * A person in several communities. Our choice where the spec is silent (spec section 1 gives a user
 * one tenant; the team page's invitations reach people who already use the console elsewhere), after
 * the consoles that let one login reach several workspaces:
 * - The person has one account (users row) in each community, with its own role and permissions; the
 *   session stays what it was, one account and one tenant.
 * - The accounts share the address and the password: a password change or reset sets it on all of them
 *   and ends their sessions everywhere; a confirmed address change moves them all.
 * - Signing in opens the community signed into most recently (db/users.ts); the header's switcher
 *   (`GET /v1/auth/communities`, `POST /v1/auth/switch`) moves to another with a token of that
 *   community's account, and the token it replaces stops working.
 * - An invited address that has an account elsewhere joins with that account's password (team/invitations.ts).
 * - Removing someone from a team deletes only that community's account; a deleted community's accounts
 *   are no longer listed.
 */
import { and, asc, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { MemberCommunity } from '../contracts';
import type { Deps } from '../deps';
import type { Database } from '../db/index';
import { tenants, users } from '../db/schema';
import { badRequest, forbidden } from '../errors';
import type { AuthContext } from './session';
import { revokeToken, sessionChanged } from './session-cache';
import { signToken } from './tokens';

export const SWITCH_NOT_WHILE_IMPERSONATING = 'You are acting as this user; stop impersonating to switch communities.';
export const NOT_YOUR_COMMUNITY = 'You have no account in this community.';

/** Every account of the person with this address (one per community). */
export function sameAddress(email: string): SQL {
  return sql`lower(${users.email}) = ${email.trim().toLowerCase()}`;
}

/**
 * Serialises, until the transaction ends, the creations of accounts for this address that must find
 * none elsewhere (a new tenant's owner): the unique index covers one community only.
 */
export async function lockAddress(tx: Database, email: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`address:${email.trim().toLowerCase()}`}))`);
}

/** The live accounts of an address with their communities, most recently signed into first. */
export async function accountsOf(db: Database, email: string) {
  return db
    .select({
      userId: users.id,
      tenantId: users.tenantId,
      tenantName: tenants.name,
      role: users.role,
      tokenVersion: users.tokenVersion,
    })
    .from(users)
    .leftJoin(tenants, eq(tenants.id, users.tenantId))
    .where(and(sameAddress(email), isNull(tenants.deletedAt)))
    .orderBy(sql`${users.lastSignInAt} desc nulls last`, desc(users.createdAt), asc(users.id));
}

/** The switcher's list: the caller's communities, by name; an impersonation session sees only its own. */
export async function listCommunities(db: Database, auth: AuthContext): Promise<MemberCommunity[]> {
  const current: MemberCommunity = {
    tenant_id: auth.tenantId ?? '',
    tenant_name: auth.tenantName ?? '',
    role: auth.user.role,
    current: true,
  };
  if (auth.impersonatorId) return [current];
  const accounts = await accountsOf(db, auth.user.email);
  return accounts
    .map((a) => ({
      tenant_id: a.tenantId ?? '',
      tenant_name: a.tenantName ?? '',
      role: a.role,
      current: a.userId === auth.user.id,
    }))
    .sort((a, b) => a.tenant_name.localeCompare(b.tenant_name, 'en'));
}

/**
 * A token of the caller's account in `tenantId` (the header's switcher); the caller's token stops
 * working, so one browser holds one session. Not while impersonating.
 */
export async function switchCommunity(deps: Deps, auth: AuthContext, tenantId: string): Promise<string> {
  if (auth.impersonatorId) throw forbidden(SWITCH_NOT_WHILE_IMPERSONATING);
  const accounts = await accountsOf(deps.db, auth.user.email);
  const target = accounts.find((a) => a.tenantId === tenantId);
  if (!target) throw badRequest(NOT_YOUR_COMMUNITY, { tenant_id: [NOT_YOUR_COMMUNITY] });
  await deps.db.update(users).set({ lastSignInAt: deps.clock() }).where(eq(users.id, target.userId));
  await revokeToken(deps.db, { jti: auth.token.jti, sub: auth.user.id, exp: auth.token.exp });
  return signToken(deps.config, {
    userId: target.userId,
    tenantId: target.tenantId,
    role: target.role,
    tokenVersion: target.tokenVersion,
  });
}

/**
 * A new password on every account of the address, each account's sessions ended (token version
 * raised). Answers the accounts' ids and new token versions; the caller tells the session cache
 * ({@link sessionsChanged}) once the transaction has committed.
 */
export async function setPasswordEverywhere(tx: Database, email: string, passwordHash: string) {
  return tx
    .update(users)
    .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(sameAddress(email))
    .returning({ id: users.id, tokenVersion: users.tokenVersion });
}

/** Every process drops its cached copies of these accounts. */
export function sessionsChanged(db: Database, accounts: readonly { id: string }[]): void {
  for (const account of accounts) sessionChanged(db, `user:${account.id}`);
}
