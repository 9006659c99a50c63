/**
 * `Authorization: Bearer ck_live_…`: an API key as the caller of a tenant-facing route.
 *
 * - The key is found by the SHA-256 of its secret (one indexed read, then kept in memory in a cache fed
 *   by the session cache's notifications: a revoke, an expiry change or a scope change announces
 *   `tenant:<id>` from a trigger when it commits, and the process that wrote drops it at once). While
 *   the notifications are not confirmed nothing is cached and every request reads the row.
 * - The caller is an AuthContext of the key's tenant with its scope's permissions (scopes.ts), never
 *   more than its creator holds, never an admin role or an impersonation. A key works while its creator
 *   is a member of the tenant and the plan includes API access.
 * - Unknown, revoked or expired keys get 401; an expired key's "expired" event is written once, at its
 *   first refused use. Each key is rate-limited per process (429 with Retry-After).
 * - Last use (time and client address) is written at most once a minute per key and process, after the
 *   answer; the first use writes the "first used" event.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import {
  accessVersionOf,
  type AuthContext,
  type CredentialResolver,
  followerCacheOf,
  loadUser,
  type UserRow,
  userInMemory,
} from '../auth/index';
import { API_KEY_PREFIX, effectivePermissions, type Feature } from '../contracts';
import type { Database } from '../db/index';
import { apiKeyEvents, apiKeys, type ApiKeyRow } from '../db/schema';
import { HttpError, forbidden } from '../errors';
import { TokenBuckets } from '../lib/token-bucket';
import { scopePermissions } from './scopes';
import { hashSecret, sameHash, wellFormed } from './secrets';

export const KEY_UNKNOWN = 'This API key is not valid.';
export const KEY_REVOKED = 'This API key was revoked.';
export const KEY_EXPIRED = 'This API key has expired.';
export const KEY_ORPHANED = 'This API key no longer works: the member who created it has left the team.';
export const KEY_PLAN = 'Your plan does not include API access. Upgrade your plan to use API keys.';
export const KEY_RATE_LIMITED = 'Too many requests with this API key. Please slow down.';

/** Last use is written at most this often per key and process. */
export const LAST_USED_EVERY_MS = 60_000;

type KeyRow = Pick<
  ApiKeyRow,
  'id' | 'tenantId' | 'name' | 'scope' | 'secretHash' | 'createdBy' | 'expiresAt' | 'revokedAt' | 'lastUsedAt'
>;

function unauthenticated(message: string): HttpError {
  return new HttpError(401, message, undefined, { 'WWW-Authenticate': 'Bearer' });
}

/** Per gateway (per database): the key cache, the rate limiter and what was noted of each key's use. */
interface KeyState {
  keys: ReturnType<typeof followerCacheOf<KeyRow>>;
  buckets: TokenBuckets;
  /** When this process last wrote each key's last use (ms). */
  lastNoted: Map<string, number>;
  /** Keys whose "expired" event this process has written (or found written). */
  expiredNoted: Set<string>;
}

const states = new WeakMap<Database, KeyState>();

function stateOf(req: FastifyRequest): KeyState {
  const { db, config } = req.server.deps;
  let state = states.get(db);
  if (!state) {
    state = {
      keys: followerCacheOf<KeyRow>(db, 'api-keys'),
      buckets: new TokenBuckets(config.apiKeyRateLimit),
      lastNoted: new Map(),
      expiredNoted: new Set(),
    };
    states.set(db, state);
  }
  return state;
}

async function readKey(db: Database, hash: string): Promise<KeyRow | null> {
  const [row] = await db
    .select({
      id: apiKeys.id,
      tenantId: apiKeys.tenantId,
      name: apiKeys.name,
      scope: apiKeys.scope,
      secretHash: apiKeys.secretHash,
      createdBy: apiKeys.createdBy,
      expiresAt: apiKeys.expiresAt,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
    })
    .from(apiKeys)
    .where(eq(apiKeys.secretHash, hash))
    .limit(1);
  return row ?? null;
}

/** The caller a key row and its creator's row make (built once per pair of cached rows). */
const contexts = new WeakMap<KeyRow, { creator: UserRow; auth: AuthContext }>();

function contextOf(key: KeyRow, creator: UserRow): AuthContext {
  const known = contexts.get(key);
  if (known && known.creator === creator) return known.auth;
  const features: readonly Feature[] = Object.freeze([...(creator.features ?? [])]);
  const { tenantId: _t, tenantName, features: _f, ...user } = creator;
  const allowed = scopePermissions(key.scope, features);
  // Never more than its creator holds now (a member whose access shrank takes their keys' with it).
  const granted = allowed.filter((p) => user.grantedPermissions.includes(p));
  const permissions = Object.freeze(effectivePermissions(granted, features));
  const auth: AuthContext = Object.freeze({
    user: Object.freeze({ ...user, role: 'staff' as const, grantedPermissions: granted }),
    tenantId: key.tenantId,
    tenantName,
    features,
    permissions,
    accessVersion: accessVersionOf({ role: 'staff', tenantId: key.tenantId, tenantName, permissions, features }),
    impersonatorId: null,
    impersonator: null,
    token: Object.freeze({ jti: `key:${key.id}`, exp: key.expiresAt ? Math.floor(key.expiresAt.getTime() / 1000) : 0 }),
    apiKey: Object.freeze({ id: key.id, name: key.name, scope: key.scope }),
  });
  contexts.set(key, { creator, auth });
  return auth;
}

/** The answer for a key and its creator's row: the caller, or the error to answer. */
function decide(req: FastifyRequest, state: KeyState, hash: string, key: KeyRow | null, creator: UserRow | null) {
  if (!key || !sameHash(key.secretHash, hash)) return unauthenticated(KEY_UNKNOWN);
  if (key.revokedAt) return unauthenticated(KEY_REVOKED);
  const now = req.server.deps.clock().getTime();
  if (key.expiresAt && key.expiresAt.getTime() <= now) {
    noteExpired(req, state, key);
    return unauthenticated(KEY_EXPIRED);
  }
  if (!creator || creator.tenantId !== key.tenantId) return unauthenticated(KEY_ORPHANED);
  if (!(creator.features ?? []).includes('api_access')) return forbidden(KEY_PLAN);
  const wait = state.buckets.take(key.id, now);
  if (wait > 0) return new HttpError(429, KEY_RATE_LIMITED, undefined, { 'Retry-After': String(wait) });
  noteUse(req, state, key, now);
  return contextOf(key, creator);
}

/** The "expired" event, once per key (a unique row per key and kind), after the answer. */
function noteExpired(req: FastifyRequest, state: KeyState, key: KeyRow): void {
  if (state.expiredNoted.has(key.id)) return;
  state.expiredNoted.add(key.id);
  const { db, background } = req.server.deps;
  background.run(async () => {
    await db
      .insert(apiKeyEvents)
      .values({ tenantId: key.tenantId, keyId: key.id, kind: 'expired', createdAt: key.expiresAt ?? undefined })
      .onConflictDoNothing();
  });
}

/** Last use, at most once a minute per key, after the answer; the first use also writes its event. */
function noteUse(req: FastifyRequest, state: KeyState, key: KeyRow, now: number): void {
  const last = state.lastNoted.get(key.id);
  if (last !== undefined && now - last < LAST_USED_EVERY_MS) return;
  if (state.lastNoted.size >= 10_000) state.lastNoted.clear();
  state.lastNoted.set(key.id, now);
  const { db, background } = req.server.deps;
  const ip = req.ip;
  const at = new Date(now);
  background.run(async () => {
    const first = await db
      .update(apiKeys)
      .set({ lastUsedAt: at, lastUsedIp: ip })
      .where(and(eq(apiKeys.id, key.id), isNull(apiKeys.lastUsedAt)))
      .returning({ id: apiKeys.id });
    if (first.length > 0) {
      await db
        .insert(apiKeyEvents)
        .values({ tenantId: key.tenantId, keyId: key.id, kind: 'first_used', ip, createdAt: at })
        .onConflictDoNothing();
      return;
    }
    await db.update(apiKeys).set({ lastUsedAt: at, lastUsedIp: ip }).where(eq(apiKeys.id, key.id));
  });
}

/** The guards' resolver of `ck_live_…` credentials (auth/guards.ts). */
export const apiKeyCredentials: CredentialResolver = {
  prefix: API_KEY_PREFIX,
  fromMemory(req, credential) {
    if (!wellFormed(credential)) return unauthenticated(KEY_UNKNOWN);
    const state = stateOf(req);
    const hash = hashSecret(credential);
    const key = state.keys.peek(hash);
    if (key === undefined) return undefined;
    const creator = key?.createdBy ? userInMemory(req.server.deps.db, key.createdBy) : null;
    if (creator === undefined) return undefined;
    return decide(req, state, hash, key, creator);
  },
  async load(req, credential) {
    if (!wellFormed(credential)) throw unauthenticated(KEY_UNKNOWN);
    const { db } = req.server.deps;
    const state = stateOf(req);
    const hash = hashSecret(credential);
    const key = await state.keys.load(hash, async () => {
      const row = await readKey(db, hash);
      return row && { value: row, tenantId: row.tenantId };
    });
    const creator = key?.createdBy ? await loadUser(db, key.createdBy) : null;
    const decided = decide(req, state, hash, key, creator);
    if (decided instanceof HttpError) throw decided;
    return decided;
  },
};
