import { createHash } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import {
  type ApiKeyScope,
  effectivePermissions,
  type Feature,
  type Permission,
  type Role,
  type SessionUser,
} from '../contracts';
import type { Database } from '../db/index';
import { plans, tenants, users } from '../db/schema';
import { sessionCacheOf, tokenRevoked, tokenRevokedInMemory } from './session-cache';
import type { TokenClaims } from './tokens';

export interface SessionUserRow {
  id: string;
  email: string;
  role: Role;
  /** Granted permissions as stored; `AuthContext.permissions` is what counts. */
  grantedPermissions: Permission[];
  firstName: string;
  lastName: string;
  avatar: string | null;
  /** The user's own time zone, else the tenant's (null for users without a tenant and without their own). */
  timeZone: string | null;
  emailConfirmedAt: Date | null;
  tokenVersion: number;
}

/** Who is calling, as loaded from the database on every request. */
export interface AuthContext {
  user: SessionUserRow;
  tenantId: string | null;
  tenantName: string | null;
  /** Features of the tenant's plan (none without a tenant). Shared between requests: never changed. */
  features: readonly Feature[];
  /** Effective permissions: granted ones, feature-gated ones only while the plan has the feature. */
  permissions: readonly Permission[];
  /**
   * The session's access version: changes whenever what the access rules read changes (role,
   * effective permissions, plan features, tenant). Every answer to an authenticated request carries it
   * (SESSION_VERSION_HEADER), so the console refreshes its permissions when it changes (spec section 4).
   */
  accessVersion: string;
  impersonatorId: string | null;
  impersonator: { id: string; email: string } | null;
  /** The token's id and expiry (seconds): what a sign-out revokes. */
  token: { jti: string; exp: number };
  /**
   * Set when the caller is an API key (api-keys/key-auth.ts), not a signed-in person: routes that
   * name no permission refuse it (guards.ts), and its permissions are its scope's.
   */
  apiKey: ApiKeyCaller | null;
}

/** The API key behind a request. */
export interface ApiKeyCaller {
  id: string;
  name: string;
  scope: ApiKeyScope;
}

/** Roles that may impersonate someone. */
export const IMPERSONATOR_ROLES: readonly Role[] = ['super_admin', 'tenant_admin'];

async function readUser(db: Database, userId: string) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      grantedPermissions: users.permissions,
      firstName: users.firstName,
      lastName: users.lastName,
      avatar: users.avatar,
      timeZone: sql<string | null>`coalesce(${users.timeZone}, ${tenants.timeZone})`,
      emailConfirmedAt: users.emailConfirmedAt,
      tokenVersion: users.tokenVersion,
      tenantId: users.tenantId,
      tenantName: tenants.name,
      features: plans.features,
    })
    .from(users)
    .leftJoin(tenants, eq(tenants.id, users.tenantId))
    .leftJoin(plans, eq(plans.id, tenants.planId))
    // A user of a deleted tenant has no session (tenants/delete-job.ts): the tenant is gone at once.
    .where(and(eq(users.id, userId), isNull(tenants.deletedAt)));
  return row ?? null;
}

export type UserRow = NonNullable<Awaited<ReturnType<typeof readUser>>>;

/** A user with its tenant and plan, from the session cache (see session-cache.ts) or the database. */
export function loadUser(db: Database, userId: string): Promise<UserRow | null> {
  return sessionCacheOf<UserRow>(db).load(userId, async () => {
    const row = await readUser(db, userId);
    return row && { value: row, tenantId: row.tenantId };
  });
}

/**
 * The session behind verified token claims, or null when the token was signed out, the user is
 * gone, the token was revoked (password changed since), or the impersonator may no longer impersonate this user.
 */
export async function loadSession(db: Database, claims: Readonly<TokenClaims>): Promise<AuthContext | null> {
  const inMemory = sessionInMemory(db, claims);
  if (inMemory !== undefined) return inMemory;
  if (await tokenRevoked(db, claims.jti)) return null;
  const row = await loadUser(db, claims.sub);
  if (!row || row.tokenVersion !== claims.ver) return null;
  const admin = claims.imp ? await loadUser(db, claims.imp) : null;
  return sessionOfRows(claims, row, admin);
}

/**
 * {@link loadSession} from memory alone, without a promise (the session check of almost every
 * request): undefined when something must be read from the database.
 */
export function sessionInMemory(db: Database, claims: Readonly<TokenClaims>): AuthContext | null | undefined {
  const revoked = tokenRevokedInMemory(db, claims.jti);
  if (revoked === undefined) return undefined;
  if (revoked) return null;
  const users = sessionCacheOf<UserRow>(db);
  const row = users.peek(claims.sub);
  if (row === undefined) return undefined;
  let admin: UserRow | null = null;
  if (claims.imp) {
    const cached = users.peek(claims.imp);
    if (cached === undefined) return undefined;
    admin = cached;
  }
  return sessionOfRows(claims, row, admin);
}

function sessionOfRows(claims: Readonly<TokenClaims>, row: UserRow | null, admin: UserRow | null): AuthContext | null {
  if (!row || row.tokenVersion !== claims.ver) return null;
  if (claims.imp) {
    if (!admin || admin.tokenVersion !== claims.iver) return null;
    if (!mayImpersonate(admin, row)) return null;
  }
  // The same claims over the same cached rows give the same session: built once, not per request.
  const known = contexts.get(claims);
  if (known && known.row === row && known.admin === admin) return known.session;
  const impersonator = admin ? { id: admin.id, email: admin.email } : null;
  const session: AuthContext = Object.freeze({
    ...sessionOf(row),
    impersonatorId: impersonator?.id ?? null,
    impersonator,
    token: Object.freeze({ jti: claims.jti, exp: claims.exp }),
    apiKey: null,
  });
  contexts.set(claims, { row, admin, session });
  return session;
}

/** A user with its tenant and plan from memory alone: undefined when it must be loaded ({@link loadUser}). */
export function userInMemory(db: Database, userId: string): UserRow | undefined {
  return sessionCacheOf<UserRow>(db).peek(userId);
}

/** Sessions by the (remembered, per token) claims they were built from, with the rows they were built of. */
const contexts = new WeakMap<Readonly<TokenClaims>, { row: UserRow; admin: UserRow | null; session: AuthContext }>();

type DerivedSession = Pick<
  AuthContext,
  'user' | 'tenantId' | 'tenantName' | 'features' | 'permissions' | 'accessVersion'
>;

/** The answer header carrying the session's access version. */
export const SESSION_VERSION_HEADER = 'X-Session-Version';

/** A short digest of what the access rules read: equal sessions give equal versions, in every process. */
export function accessVersionOf(access: {
  role: Role;
  tenantId: string | null;
  tenantName: string | null;
  permissions: readonly Permission[];
  features: readonly Feature[];
}): string {
  const text = JSON.stringify([
    access.role,
    access.tenantId,
    access.tenantName,
    [...access.permissions].sort(),
    [...access.features].sort(),
  ]);
  return createHash('sha256').update(text).digest('base64url').slice(0, 16);
}
/** What a session derives from a user row, computed once per row read (the session cache keeps rows). */
const derived = new WeakMap<UserRow, DerivedSession>();

function sessionOf(row: UserRow): DerivedSession {
  let session = derived.get(row);
  if (!session) {
    const features = Object.freeze([...(row.features ?? [])]);
    const { tenantId, tenantName, features: _f, ...user } = row;
    const permissions = Object.freeze(effectivePermissions(user.grantedPermissions, features));
    session = {
      user: Object.freeze(user),
      tenantId,
      tenantName,
      features,
      permissions,
      accessVersion: accessVersionOf({ role: user.role, tenantId, tenantName, permissions, features }),
    };
    derived.set(row, session);
  }
  return session;
}

interface ImpersonationParty {
  id: string;
  role: Role;
  tenantId: string | null;
}

/**
 * The impersonation rule: only super admins and tenant admins impersonate; tenant admins only users
 * of their own tenant; nobody impersonates a super admin or themselves.
 */
export function impersonationDenial(admin: ImpersonationParty, target: ImpersonationParty): string | null {
  if (!IMPERSONATOR_ROLES.includes(admin.role)) return 'Only super admins and tenant admins can impersonate users.';
  if (admin.id === target.id) return 'You cannot impersonate yourself.';
  if (target.role === 'super_admin') return 'Super admins cannot be impersonated.';
  if (admin.role === 'tenant_admin' && (admin.tenantId === null || admin.tenantId !== target.tenantId)) {
    return 'You can only impersonate users of your own tenant.';
  }
  return null;
}

export function mayImpersonate(admin: ImpersonationParty, target: ImpersonationParty): boolean {
  return impersonationDenial(admin, target) === null;
}

export function toSessionUser(auth: AuthContext): SessionUser {
  return {
    _id: auth.user.id,
    email: auth.user.email,
    role: auth.user.role,
    permissions: [...auth.permissions],
    features: [...auth.features],
    tenant_id: auth.tenantId,
    tenant_name: auth.tenantName,
    first_name: auth.user.firstName,
    last_name: auth.user.lastName,
    avatar: auth.user.avatar,
    time_zone: auth.user.timeZone,
    impersonator: auth.impersonator ? { _id: auth.impersonator.id, email: auth.impersonator.email } : null,
  };
}
