/**
 * Each tenant's community row, kept in memory per process so GET /v1/communities/my-community costs
 * no database query (on embedded PGlite every query waits for its one connection; bench/README.md,
 * "The community row's cache"), and dropped
 * the moment it changes, the same way as the session cache (auth/session-cache.ts):
 *
 * - A trigger on communities (migration 0013) NOTIFYs `console_community` with `tenant:<id>` (or `all`)
 *   on every insert, update or delete, cascades included; every gateway process LISTENs on its database
 *   and drops what the message names.
 * - The process that writes also calls {@link communityChanged} after its commit, so its own next read
 *   sees the write without waiting for the notification.
 * - While the listener is not confirmed (starting, connection lost), nothing is cached; a read that
 *   raced an invalidation is not stored; entries live at most a minute, at most 10,000 of them.
 * - Only found rows are cached: "no community yet" is read from the database every time.
 *
 * This is the one place that reads a tenant's community row for its owner (community-store.ts).
 */
import { eq } from 'drizzle-orm';
import { notifiedCache, type SessionCache } from '../../auth';
import type { Database } from '../../db/index';
import { communities, type CommunityRow } from '../../db/schema';

export const COMMUNITY_CHANNEL = 'console_community';

const caches = notifiedCache<CommunityRow>(COMMUNITY_CHANNEL);
const entryOf = caches.of;

/** The cache of a database, created (and subscribed) on first use. */
export function communityCacheOf(db: Database): SessionCache<CommunityRow> {
  return entryOf(db).cache;
}

/** Subscribes at start (the gateway's onReady), so the first reads are already kept. */
export function startCommunityCache(db: Database): Promise<void> {
  return entryOf(db).started;
}

/** The tenant's community row, from memory or the database. */
export function cachedCommunityRow(db: Database, tenantId: string): Promise<CommunityRow | null> {
  return communityCacheOf(db).load(tenantId, async () => {
    const [row] = await db.select().from(communities).where(eq(communities.tenantId, tenantId));
    return row ? { value: row, tenantId } : null;
  });
}

/** The tenant's community row from memory alone: undefined when it must be read ({@link cachedCommunityRow}). */
export function communityRowInMemory(db: Database, tenantId: string): CommunityRow | undefined {
  return caches.existing(db)?.cache.peek(tenantId);
}

/** After a committed write to a tenant's community: applied to this process at once. */
export function communityChanged(db: Database, tenantId: string): void {
  caches.existing(db)?.cache.invalidate(`tenant:${tenantId}`);
}
