/**
 * A {@link SessionCache} per database that drops what a NOTIFY on `channel` names (`tenant:<id>`,
 * `all`, …): subscribed on first use, and caching only while the listener is confirmed (SessionCache's
 * rule). `onCreate` runs once per database, e.g. to also hear the writing process's own changes.
 */
import type { Database } from '../db/index';
import { listen } from '../db/notifications';
import { SessionCache } from './session-cache';

export interface NotifiedCache<T> {
  cache: SessionCache<T>;
  /** Resolves once the listener is subscribed (or has failed: then nothing is cached). */
  started: Promise<void>;
}

export function notifiedCache<T>(
  channel: string,
  onCreate?: (db: Database, cache: SessionCache<T>) => void,
): {
  /** The database's cache, created and subscribed on first use. */
  of: (db: Database) => NotifiedCache<T>;
  /** The database's cache if it was made (no listener is started for a peek or an invalidation). */
  existing: (db: Database) => NotifiedCache<T> | undefined;
} {
  const caches = new WeakMap<Database, NotifiedCache<T>>();
  const of = (db: Database) => {
    let entry = caches.get(db);
    if (!entry) {
      const cache = new SessionCache<T>();
      const started = listen(db, channel, {
        onMessage: (payload) => cache.invalidate(payload),
        onState: (listening) => cache.setListening(listening),
      }).then(
        () => undefined,
        () => cache.setListening(false),
      );
      entry = { cache, started };
      caches.set(db, entry);
      onCreate?.(db, cache);
    }
    return entry;
  };
  return { of, existing: (db) => caches.get(db) };
}
