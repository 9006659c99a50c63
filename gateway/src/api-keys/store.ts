/**
 * A tenant's keys: create (the secret returned once, its hash stored), list (never a secret), revoke,
 * and the audit list of their events.
 */
import { and, asc, count, desc, eq, ilike, isNull, or, type SQL } from 'drizzle-orm';
import { type AuthContext, sessionChanged } from '../auth/index';
import type {
  ApiKey,
  ApiKeyEvent,
  ApiKeyEventQuery,
  ApiKeyQuery,
  ApiKeyScope,
  ApiKeyStatus,
  CreatedApiKey,
} from '../contracts';
import { API_KEY_EXPIRY_PAST } from '../contracts';
import type { Database } from '../db/index';
import { apiKeyEvents, apiKeys, type ApiKeyRow } from '../db/schema';
import { badRequest, notFound } from '../errors';
import { isUuid } from '../lib/db-helpers';
import { likePattern, pageWindow } from '../lib/pagination';
import { scopePermissions } from './scopes';
import { newSecret } from './secrets';

export const KEY_NOT_FOUND = 'API key not found.';
/** Nobody makes a key that could do more than they can (as nobody grants a permission they lack). */
export const SCOPE_BEYOND_YOURS = 'You can only create keys with permissions you hold.';

export function statusOf(row: Pick<ApiKeyRow, 'revokedAt' | 'expiresAt'>, now: Date): ApiKeyStatus {
  if (row.revokedAt) return 'revoked';
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toApiKey(row: ApiKeyRow, now: Date): ApiKey {
  return {
    _id: row.id,
    name: row.name,
    scope: row.scope,
    prefix: row.prefix,
    status: statusOf(row, now),
    created_by: row.createdByEmail ? { _id: row.createdBy, email: row.createdByEmail } : null,
    created_at: row.createdAt.toISOString(),
    expires_at: iso(row.expiresAt),
    revoked_at: iso(row.revokedAt),
    last_used_at: iso(row.lastUsedAt),
    last_used_ip: row.lastUsedIp,
  };
}

export interface NewKey {
  name: string;
  scope: ApiKeyScope;
  expiresAt: Date | null;
}

/** Who acts: the person, or, while a platform admin impersonates, nobody named (as team events do). */
function actorOf(auth: AuthContext): { id: string | null; email: string | null } {
  return auth.impersonatorId
    ? { id: null, email: auth.impersonator?.email ?? null }
    : { id: auth.user.id, email: auth.user.email };
}

/**
 * Creates a key for the caller's tenant: 201 with the secret, shown this once. The key acts as its
 * creator (who must hold every permission of the scope) and stops working if they leave.
 */
export async function createKey(
  db: Database,
  auth: AuthContext,
  tenantId: string,
  input: NewKey,
  now: Date,
): Promise<CreatedApiKey> {
  if (input.expiresAt && input.expiresAt.getTime() <= now.getTime()) {
    throw badRequest('Invalid input', { expires_at: [API_KEY_EXPIRY_PAST] });
  }
  const needed = scopePermissions(input.scope, auth.features);
  if (!needed.every((p) => auth.permissions.includes(p))) {
    throw badRequest('Invalid input', { scope: [SCOPE_BEYOND_YOURS] });
  }
  const { secret, hash, prefix } = newSecret();
  const actor = actorOf(auth);
  const row = await db.transaction(async (tx) => {
    const [key] = await tx
      .insert(apiKeys)
      .values({
        tenantId,
        name: input.name,
        scope: input.scope,
        prefix,
        secretHash: hash,
        // The key acts as the member who made it, also when an admin impersonating them made it.
        createdBy: auth.user.id,
        createdByEmail: auth.user.email,
        expiresAt: input.expiresAt,
        createdAt: now,
      })
      .returning();
    if (!key) throw new Error('insert returned no row');
    await tx
      .insert(apiKeyEvents)
      .values({ tenantId, keyId: key.id, kind: 'created', actorId: actor.id, actorEmail: actor.email, createdAt: now });
    return key;
  });
  return { ...toApiKey(row, now), secret };
}

/** Revokes a key of the tenant: refused from the very next request, in every process. */
export async function revokeKey(
  db: Database,
  auth: AuthContext,
  tenantId: string,
  id: string,
  now: Date,
): Promise<ApiKey> {
  if (!isUuid(id)) throw notFound(KEY_NOT_FOUND);
  const actor = actorOf(auth);
  const row = await db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.tenantId, tenantId), isNull(apiKeys.revokedAt)))
      .returning();
    if (revoked) {
      await tx
        .insert(apiKeyEvents)
        .values({ tenantId, keyId: id, kind: 'revoked', actorId: actor.id, actorEmail: actor.email, createdAt: now })
        .onConflictDoNothing();
      return revoked;
    }
    // Revoking twice answers the key as it is.
    const [existing] = await tx
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.id, id), eq(apiKeys.tenantId, tenantId)));
    if (!existing) throw notFound(KEY_NOT_FOUND);
    return existing;
  });
  // This process drops the tenant's cached keys at once; the others hear the trigger's notification.
  sessionChanged(db, `tenant:${tenantId}`);
  return toApiKey(row, now);
}

const SORTS = {
  created_at: apiKeys.createdAt,
  name: apiKeys.name,
  last_used_at: apiKeys.lastUsedAt,
} as const;

export async function listKeys(
  db: Database,
  tenantId: string,
  q: ApiKeyQuery,
  now: Date,
): Promise<{ records: ApiKey[]; count: number }> {
  const conditions: SQL[] = [eq(apiKeys.tenantId, tenantId)];
  const search = q.searchString.trim();
  if (search) {
    const p = likePattern(search);
    const match = or(ilike(apiKeys.name, p), ilike(apiKeys.prefix, p));
    if (match) conditions.push(match);
  }
  const where = and(...conditions);
  const [total] = await db.select({ n: count() }).from(apiKeys).where(where);
  const direction = q.sortOrder === 'asc' ? asc : desc;
  const { offset, limit } = pageWindow(q.page, q.perPage);
  const rows = await db
    .select()
    .from(apiKeys)
    .where(where)
    .orderBy(direction(SORTS[q.sortField]), direction(apiKeys.id))
    .limit(limit)
    .offset(offset);
  return { records: rows.map((r) => toApiKey(r, now)), count: total?.n ?? 0 };
}

/** Spec section 7's `GET /v1/tenants/access-keys`: every key of the tenant, newest first. */
export async function allKeys(db: Database, tenantId: string, now: Date): Promise<ApiKey[]> {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.tenantId, tenantId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(1000);
  return rows.map((r) => toApiKey(r, now));
}

export async function listKeyEvents(
  db: Database,
  tenantId: string,
  q: ApiKeyEventQuery,
): Promise<{ records: ApiKeyEvent[]; count: number }> {
  const conditions: SQL[] = [eq(apiKeyEvents.tenantId, tenantId)];
  const search = q.searchString.trim();
  if (search) {
    const p = likePattern(search);
    const match = or(ilike(apiKeys.name, p), ilike(apiKeys.prefix, p), ilike(apiKeyEvents.actorEmail, p));
    if (match) conditions.push(match);
  }
  const where = and(...conditions);
  const [total] = await db
    .select({ n: count() })
    .from(apiKeyEvents)
    .innerJoin(apiKeys, eq(apiKeys.id, apiKeyEvents.keyId))
    .where(where);
  const direction = q.sortOrder === 'asc' ? asc : desc;
  const { offset, limit } = pageWindow(q.page, q.perPage);
  const rows = await db
    .select({ event: apiKeyEvents, name: apiKeys.name, prefix: apiKeys.prefix })
    .from(apiKeyEvents)
    .innerJoin(apiKeys, eq(apiKeys.id, apiKeyEvents.keyId))
    .where(where)
    .orderBy(direction(apiKeyEvents.createdAt), direction(apiKeyEvents.id))
    .limit(limit)
    .offset(offset);
  return {
    records: rows.map(({ event, name, prefix }) => ({
      _id: event.id,
      kind: event.kind,
      key: { _id: event.keyId, name, prefix },
      actor: event.actorEmail ? { _id: event.actorId, email: event.actorEmail } : null,
      ip: event.ip,
      created_at: event.createdAt.toISOString(),
    })),
    count: total?.n ?? 0,
  };
}
