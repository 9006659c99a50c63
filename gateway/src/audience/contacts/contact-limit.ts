/**
 * The contacts a tenant may hold on this database (db/storage.ts contactsPerTenant; docs/storage.md):
 * embedded PGlite is for a community of up to that many contacts, a PostgreSQL server has no limit.
 * Past it, creating a contact is refused (409) and an import stops before the batch that would pass
 * it, each with a message that says so and what lifts it. Sign-ups through a community's widgets are
 * still taken: a visitor is never refused for the size of the server.
 */
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/index';
import { contactCounts } from '../../db/schema';
import { storageCapabilities } from '../../db/storage';
import { conflict } from '../../errors';

/** What the user reads when the limit is reached. */
export function contactLimitMessage(limit: number): string {
  return (
    `The embedded database holds up to ${limit.toLocaleString('en-US')} contacts per community. ` +
    'Run the console on a PostgreSQL server (DATABASE_URL) to hold more.'
  );
}

/** Thrown by an import's batch whose new contacts would pass the limit (the job fails with its message). */
export class ContactLimitReached extends Error {
  constructor(limit: number) {
    super(`The import stopped: ${contactLimitMessage(limit)} The rows imported before are kept.`);
    this.name = 'ContactLimitReached';
  }
}

/** How many more contacts the tenant may have (Infinity: no limit); from the counters, one index probe. */
export async function contactRoom(db: Database, tenantId: string): Promise<number> {
  const limit = storageCapabilities(db).contactsPerTenant;
  if (!Number.isFinite(limit)) return Infinity;
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(${contactCounts.n}), 0)::int` })
    .from(contactCounts)
    .where(eq(contactCounts.tenantId, tenantId));
  return Math.max(0, limit - Number(row?.n ?? 0));
}

/** Refuses (409) `adding` new contacts that would pass the limit. */
export async function requireContactRoom(db: Database, tenantId: string, adding: number): Promise<void> {
  if ((await contactRoom(db, tenantId)) < adding) {
    throw conflict(contactLimitMessage(storageCapabilities(db).contactsPerTenant));
  }
}

/** An import's batch: throws ContactLimitReached when its `adding` new contacts would pass the limit. */
export async function requireImportRoom(db: Database, tenantId: string, adding: number): Promise<void> {
  if ((await contactRoom(db, tenantId)) < adding) {
    throw new ContactLimitReached(storageCapabilities(db).contactsPerTenant);
  }
}
