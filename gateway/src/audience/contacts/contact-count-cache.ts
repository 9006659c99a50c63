/**
 * Counts of filtered contacts on embedded PGlite, walked once (contact-walk.ts: bounded statements,
 * the event loop answering in between) and then kept while the tenant's audience does not change, so
 * paging a filtered grid or re-reading a segment's count does not walk the tenant again.
 *
 * The audience's version is one statement of index probes: the tenant's contact_counts rows (total
 * and row versions: every insert, delete or status change writes them), max(updated_at) (every write
 * of a contact's fields sets it), and the row versions of the tenant's lists (a trigger writes a
 * list's member count on every change of its members). A custom attribute deleted changes no count
 * a filter can still ask for (a filter or rule naming it is refused).
 */
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/index';
import { contactCounts, contacts, lists } from '../../db/schema';
import { queryRows, textOf } from '../../lib/raw-sql';
import { walkCount } from './contact-walk';

/** Filters (per database) whose counts are kept, least recently used dropped first. */
const CACHE_SIZE = 256;

const dialect = new PgDialect();
const caches = new WeakMap<Database, Map<string, { version: string; n: number }>>();

/** The version of a tenant's audience: moves with any change of its contacts or list memberships. */
export async function audienceVersion(db: Database, tenantId: string): Promise<string> {
  const [row] = await queryRows(
    db,
    sql`select concat_ws('|',
          (select string_agg(${contactCounts.n}::text || ':' || xmin::text, ',' order by ${contactCounts.status})
            from ${contactCounts} where ${contactCounts.tenantId} = ${tenantId}::uuid),
          (select max(${contacts.updatedAt})::text from ${contacts} where ${contacts.tenantId} = ${tenantId}::uuid),
          (select string_agg(xmin::text, ',' order by ${lists.id}) from ${lists} where ${lists.tenantId} = ${tenantId}::uuid)
        ) as v`,
  );
  return (row && textOf(row, 'v')) ?? '';
}

/** How many of the tenant's contacts match `where` (a condition over `contacts`, tenant included). */
export async function cachedWalkCount(db: Database, tenantId: string, where: SQL): Promise<number> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  const query = dialect.sqlToQuery(where);
  const name = `${tenantId}:${query.sql}:${JSON.stringify(query.params)}`;
  const version = await audienceVersion(db, tenantId);
  const kept = cache.get(name);
  if (kept && kept.version === version) {
    cache.delete(name);
    cache.set(name, kept); // most recently used last
    return kept.n;
  }
  const n = await walkCount(db, tenantId, where);
  // A write during the walk: the count may be off by it; answer it, but do not keep it.
  if ((await audienceVersion(db, tenantId)) !== version) return n;
  cache.delete(name);
  cache.set(name, { version, n });
  for (const oldest of cache.keys()) {
    if (cache.size <= CACHE_SIZE) break;
    cache.delete(oldest);
  }
  return n;
}
