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
 */
import type { Database } from '../db/index';
import { listen } from '../db/notifications';

export const SESSION_CHANNEL = 'console_session';
const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

interface Entry<T> {
  value: T;
  tenantId: string | null;
  at: number;
}

export class SessionCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private generation = 0;
  private listening = false;

  constructor(private readonly now: () => number = Date.now) {}

  get enabled(): boolean {
    return this.listening;
  }

  setListening(listening: boolean): void {
    this.listening = listening;
    this.invalidate('all');
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

  /** Drops what a message names: `user:<id>`, `tenant:<id>` or `all` (anything else counts as all). */
  invalidate(message: string): void {
    this.generation += 1;
    const [kind, id] = message.split(':', 2);
    if (kind === 'user' && id) this.entries.delete(id);
    else if (kind === 'tenant' && id) {
      for (const [key, entry] of this.entries) if (entry.tenantId === id) this.entries.delete(key);
    } else this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

const caches = new WeakMap<Database, SessionCache<unknown>>();

/**
 * The session cache of a database, created (and subscribed) on first use. `T` is fixed by the one
 * caller (auth/session.ts); the cast is confined here.
 */
export function sessionCacheOf<T>(db: Database): SessionCache<T> {
  let cache = caches.get(db);
  if (!cache) {
    const created = new SessionCache<unknown>();
    caches.set(db, created);
    listen(db, SESSION_CHANNEL, {
      onMessage: (payload) => created.invalidate(payload),
      onState: (listening) => created.setListening(listening),
    }).catch(() => created.setListening(false));
    cache = created;
  }
  return cache as SessionCache<T>;
}

/** After a committed write to a user, tenant or plan: drop it from this process's cache at once. */
export function sessionChanged(db: Database, message: `user:${string}` | `tenant:${string}` | 'all'): void {
  caches.get(db)?.invalidate(message);
}
