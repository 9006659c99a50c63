/**
 * What the session check reads on every request (the user's row, the tenant's name and the plan's
 * features), kept in memory so a request costs no database query, and dropped the moment it changes:
 *
 * - Triggers on users, tenants and plans (migration 0011) NOTIFY `console_session` with `user:<id>`,
 *   `tenant:<id>` or `all` when such a row changes; every gateway process LISTENs on its database
 *   (PGlite in process, a PostgreSQL server across processes) and drops what the message names.
 * - The process that writes also calls {@link sessionChanged} after its commit, so its own next
 *   request sees the change without waiting for the notification.
 * - While the listener is not confirmed (starting, connection lost), nothing is cached: the check
 *   reads the database as before. A read that raced an invalidation is not stored (generation count).
 * - Entries live at most {@link TTL_MS} and the map holds at most {@link MAX_ENTRIES} users.
 *
 * Signed-out tokens (by `jti`, table revoked_tokens) are kept here too: loaded once listening, then
 * added by `revoked:<jti>` messages; until loaded, the check asks the database.
 */
import { eq, gt, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/index';
import { listen } from '../db/notifications';
import { revokedTokens } from '../db/schema';

export const SESSION_CHANNEL = 'console_session';
const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;
/** Above this many signed-out tokens in memory, the expired ones are dropped. */
const MAX_REVOKED = 50_000;

interface Entry<T> {
  value: T;
  tenantId: string | null;
  at: number;
}

export class SessionCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private generation = 0;
  private listening = false;
  /** Signed-out token ids and when they expire anyway (ms); complete only while `revokedReady`. */
  private readonly revoked = new Map<string, number>();
  private revokedReady = false;

  constructor(private readonly now: () => number = Date.now) {}

  get enabled(): boolean {
    return this.listening;
  }

  setListening(listening: boolean): void {
    this.listening = listening;
    this.invalidate('all');
    if (!listening) {
      this.revokedReady = false;
      this.revoked.clear();
    }
  }

  /** The signed-out tokens read from the database once listening (merged with those heard since). */
  revokedLoaded(rows: { jti: string; expiresAt: number }[]): void {
    if (!this.listening) return;
    for (const row of rows) this.revoke(row.jti, row.expiresAt);
    this.revokedReady = true;
  }

  /** Whether a token id was signed out: from memory when complete, else from `read` (the database). */
  async isRevoked(jti: string, read: () => Promise<boolean>): Promise<boolean> {
    if (this.listening && this.revokedReady) return this.revoked.has(jti);
    return read();
  }

  private revoke(jti: string, expiresAt = Number.MAX_SAFE_INTEGER): void {
    if (this.revoked.size >= MAX_REVOKED) {
      const now = this.now();
      for (const [id, at] of this.revoked) if (at < now) this.revoked.delete(id);
    }
    this.revoked.set(jti, expiresAt);
  }

  /** Whether a token id was signed out, from memory alone: undefined while memory is not complete. */
  revokedInMemory(jti: string): boolean | undefined {
    return this.listening && this.revokedReady ? this.revoked.has(jti) : undefined;
  }

  /** The cached value for a user, from memory alone: undefined when it must be loaded ({@link load}). */
  peek(userId: string): T | undefined {
    const hit = this.entries.get(userId);
    return hit && this.now() - hit.at < TTL_MS ? hit.value : undefined;
  }

  /** The cached value for a user, or the loader's (stored when nothing changed meanwhile). */
  async load(userId: string, loader: () => Promise<{ value: T; tenantId: string | null } | null>): Promise<T | null> {
    const hit = this.entries.get(userId);
    if (hit && this.now() - hit.at < TTL_MS) return hit.value;
    const generation = this.generation;
    const loaded = await loader();
    if (!loaded) return null;
    if (this.listening && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value ?? '');
      this.entries.delete(userId);
      this.entries.set(userId, { ...loaded, at: this.now() });
    }
    return loaded.value;
  }

  /**
   * Drops what a message names: `user:<id>`, `tenant:<id>` or `all` (anything else counts as all);
   * `revoked:<jti>` adds a signed-out token.
   */
  invalidate(message: string): void {
    const [kind, id] = message.split(':', 2);
    if (kind === 'revoked' && id) {
      this.revoke(id);
      return;
    }
    this.generation += 1;
    if (kind === 'user' && id) this.entries.delete(id);
    else if (kind === 'tenant' && id) {
      for (const [key, entry] of this.entries) if (entry.tenantId === id) this.entries.delete(key);
    } else this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

interface CacheEntry {
  cache: SessionCache<unknown>;
  started: Promise<void>;
  /** Other caches fed by the same notifications (API keys: api-keys/key-auth.ts), by name. */
  followers: Map<string, SessionCache<unknown>>;
  listening: boolean;
}

const caches = new WeakMap<Database, CacheEntry>();

function entryOf(db: Database): CacheEntry {
  let entry = caches.get(db);
  if (!entry) {
    const cache = new SessionCache<unknown>();
    const created: CacheEntry = { cache, started: Promise.resolve(), followers: new Map(), listening: false };
    const setListening = (listening: boolean) => {
      created.listening = listening;
      cache.setListening(listening);
      for (const follower of created.followers.values()) follower.setListening(listening);
    };
    created.started = listen(db, SESSION_CHANNEL, {
      onMessage: (payload) => {
        cache.invalidate(payload);
        for (const follower of created.followers.values()) follower.invalidate(payload);
      },
      onState: (listening) => {
        setListening(listening);
        if (listening) {
          loadRevoked(db)
            .then((rows) => cache.revokedLoaded(rows))
            .catch(() => undefined); // stays incomplete: the check keeps asking the database
        }
      },
    }).then(
      () => undefined,
      () => setListening(false),
    );
    entry = created;
    caches.set(db, entry);
  }
  return entry;
}

/**
 * A cache of another kind of credential (API keys), fed by the same `console_session` notifications
 * and the same {@link sessionChanged} calls as the session cache: entries keyed by any id, each with
 * its tenant, dropped by `tenant:<id>` (and `all`), and nothing cached while not listening.
 */
export function followerCacheOf<T>(db: Database, name: string): SessionCache<T> {
  const entry = entryOf(db);
  let follower = entry.followers.get(name);
  if (!follower) {
    follower = new SessionCache<unknown>();
    follower.setListening(entry.listening);
    entry.followers.set(name, follower);
  }
  return follower as SessionCache<T>;
}

/**
 * The session cache of a database, created (and subscribed) on first use. `T` is fixed by the one
 * caller (auth/session.ts); the cast is confined here.
 */
export function sessionCacheOf<T>(db: Database): SessionCache<T> {
  return entryOf(db).cache as SessionCache<T>;
}

/** Subscribes at start (the gateway's onReady), so the first requests are already served from memory. */
export function startSessionCache(db: Database): Promise<void> {
  return entryOf(db).started;
}

async function loadRevoked(db: Database): Promise<{ jti: string; expiresAt: number }[]> {
  const rows = await db
    .select({ jti: revokedTokens.jti, expiresAt: revokedTokens.expiresAt })
    .from(revokedTokens)
    .where(gt(revokedTokens.expiresAt, sql`now()`));
  return rows.map((r) => ({ jti: r.jti, expiresAt: r.expiresAt.getTime() }));
}

/**
 * After a committed write to a user, tenant or plan, or a sign-out: applied to this process's cache
 * at once (the other processes hear it from the database).
 */
export function sessionChanged(
  db: Database,
  message: `user:${string}` | `tenant:${string}` | `revoked:${string}` | 'all',
): void {
  const entry = caches.get(db);
  if (!entry) return;
  entry.cache.invalidate(message);
  for (const follower of entry.followers.values()) follower.invalidate(message);
}

/** Whether the token with this id was signed out, from memory alone (undefined: ask {@link tokenRevoked}). */
export function tokenRevokedInMemory(db: Database, jti: string): boolean | undefined {
  return caches.get(db)?.cache.revokedInMemory(jti);
}

/** Whether the token with this id was signed out (POST /v1/auth/logout). */
export function tokenRevoked(db: Database, jti: string): Promise<boolean> {
  return sessionCacheOf(db).isRevoked(jti, async () => {
    const [row] = await db
      .select({ jti: revokedTokens.jti })
      .from(revokedTokens)
      .where(eq(revokedTokens.jti, jti))
      .limit(1);
    return row !== undefined;
  });
}

/** Ends one token (sign-out): stored until it would have expired, announced to every process. */
export async function revokeToken(db: Database, claims: { jti: string; sub: string; exp: number }): Promise<void> {
  await db.delete(revokedTokens).where(lt(revokedTokens.expiresAt, sql`now()`));
  await db
    .insert(revokedTokens)
    .values({ jti: claims.jti, userId: claims.sub, expiresAt: new Date(claims.exp * 1000) })
    .onConflictDoNothing();
  sessionChanged(db, `revoked:${claims.jti}`);
}
