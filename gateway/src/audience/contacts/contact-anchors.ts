/**
 * Page anchors: deep pages of the unfiltered grid, or of the grid filtered by one status or by one
 * list, without OFFSET's walk over every skipped row.
 *
 * For a tenant and a sort field, one index-only walk of the sort index in ascending (key, id) order
 * samples every K-th row (its key and id: an anchor). Row `offset` is then found by a keyset read
 * after the anchor just before it, skipping fewer than K index entries, whatever the page:
 *   where tenant_id = $1 and (key, id) > (anchor.key, anchor.id) order by key, id offset r limit n
 * Anchors are kept in memory (a small LRU per database: a few tenants x sort fields x filters,
 * about 100 kB each at a million contacts) and are the same for both directions: a page is turned
 * into its range of ascending ranks, read ascending and flipped for a descending sort. A filter is
 * one more condition on every walk and read: a status (the sort indexes carry it, migration 0009, so
 * the walks stay index-only) or a list (a probe of list_members' primary key per contact walked).
 *
 * E-mail and wallet may be NULL, and NULLs sort last ascending (first descending), ordered by id.
 * A row comparison with NULL is never true, so such a sort is two segments: the contacts with a
 * value, sampled on (key, id), then those without, sampled on id (`key is null and id > anchor`);
 * a page across the boundary reads both. Every read walks contacts_tenant_<field>_order_idx.
 *
 * Validity. Anchors are ranks, so ANY insert, delete, status change or sort-key change before them
 * shifts pages. They are kept with a fingerprint read per request (one statement of index probes,
 * < 1 ms), the same for every set of the tenant but for the list version below:
 * - the tenant's contact_counts rows, total and row versions (xmin): every insert, delete or status
 *   change runs a trigger that writes them, even when the counts come back to the same numbers;
 * - max(updated_at) (contacts_tenant_updated_idx, backwards, one entry): every write of a sort key
 *   sets updated_at = now() (contact-store, contact-bulk, import-batch, onboarding's subscribe; the
 *   custom attribute clean-up changes no sort key, and list membership is no part of this order);
 * - for the set of a list, the list row's version (xmin): a trigger writes its member count on
 *   every change of its members, including those of contacts deleted.
 * now() is the writer's transaction START, so a write that commits after the anchors were built
 * may carry an updated_at older than the max they saw and change nothing in the fingerprint. Hence
 * anchors are built only when that cannot happen: when no other transaction (pg_stat_activity) that
 * began before max(updated_at) is still open, and max(updated_at) is in the past. Checked before the
 * fingerprint is read, so any writer not yet visible then either began later (its updated_at moves
 * the max) or is seen open (no anchors this time: the request reads with OFFSET, as without them).
 * The walk is read after the fingerprint and must add up to its total, else nothing is kept.
 *
 * The walks and reads go along their index whatever the planner's statistics say (db/storage.ts
 * readInIndexOrder; embedded PGlite has no autovacuum). A walk takes at most as many hops per
 * statement as one statement of the database reads rows (readRows; all of them on a server): a build
 * of several statements is kept only if the fingerprint did not move meanwhile.
 *
 * Off the user's path: every request of a large tenant's unfiltered grid starts (prefetchAnchors,
 * one background run per database at a time) building the missing or stale sets of all its sort
 * fields, through the same checks, so a later deep page finds them ready.
 */
import { and, asc, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import { CONTACT_SORT_FIELDS, type ContactSortField, type ContactStatus, type SortOrder } from '../../contracts';
import type { Database } from '../../db/index';
import { contactCounts, contacts, listMembers, lists, type ContactRow } from '../../db/schema';
import { intOf, queryRows, textOf } from '../../lib/raw-sql';
import { readInIndexOrder, readThroughIndexes, storageCapabilities, yieldToRequests } from '../../db/storage';
import { sortSpec, type SegmentSpec, type SortSpec } from './contact-sort';

export interface AnchorOptions {
  /** An anchor every this many rows (K): a page skips fewer index entries than this. */
  every: number;
  /** Pages whose plain OFFSET (after reading from the nearer end) is below this read without anchors. */
  from: number;
}

/** 1,000 anchors at a million contacts; a page skips at most 999 index entries. */
export const PAGE_ANCHORS: AnchorOptions = { every: 1000, from: 5000 };

/** (Tenant, sort field) anchor sets kept per database. */
const CACHE_SIZE = 32;

/** The row at rank `rank` (0-based, ascending, within its segment): its key as text and id. */
interface Anchor {
  rank: number;
  key: string | null;
  id: string;
}

interface Segment {
  anchors: Anchor[];
  size: number;
}

interface AnchorSet {
  fingerprint: string;
  /** In ascending order; their sizes add up to the contacts the set orders (see AnchorFilter). */
  segments: Segment[];
}

/**
 * Which contacts of the tenant a set orders: all of them (null), those of one status, or the
 * members of one list (the caller has checked that the list is the tenant's).
 */
export type AnchorFilter = { status: ContactStatus } | { listId: string } | null;

/** The cache key of a set. */
function setName(tenantId: string, field: ContactSortField, every: number, filter: AnchorFilter): string {
  const scope = filter === null ? '*' : 'status' in filter ? `status:${filter.status}` : `list:${filter.listId}`;
  return `${tenantId}:${field}:${every}:${scope}`;
}

/** The rows a set orders: the tenant's, of one status, or members of one list (one primary-key probe each). */
function scopeWhere(tenantId: string, filter: AnchorFilter): SQL {
  const tenant = sql`${contacts.tenantId} = ${tenantId}::uuid`;
  if (filter === null) return tenant;
  if ('status' in filter) return sql`${tenant} and ${contacts.status} = ${filter.status}`;
  return sql`${tenant} and exists (select 1 from ${listMembers} where ${listMembers.listId} = ${filter.listId}::uuid and ${listMembers.contactId} = ${contacts.id})`;
}

/**
 * What the anchors of a tenant depend on (see the header). One statement, index probes only. `total`
 * counts the contacts a set with `filter` orders (from the counters, or the list's member count);
 * for a list, its row version is part of the fingerprint (its member count is written by a trigger
 * on every change of its members, deletes of contacts included).
 */
async function fingerprint(
  db: Database,
  tenantId: string,
  filter: AnchorFilter,
): Promise<{ text: string; total: number }> {
  const status = filter !== null && 'status' in filter ? filter.status : null;
  const listId = filter !== null && 'listId' in filter ? filter.listId : null;
  const [row] = await queryRows(
    db,
    sql`select
          (select coalesce(sum(${contactCounts.n}), 0)::bigint from ${contactCounts} where ${contactCounts.tenantId} = ${tenantId}::uuid) as tenant,
          case when ${listId}::uuid is null then
            (select coalesce(sum(${contactCounts.n}), 0)::bigint from ${contactCounts}
              where ${contactCounts.tenantId} = ${tenantId}::uuid and (${status}::text is null or ${contactCounts.status} = ${status}::text))
          else
            (select ${lists.memberCount}::bigint from ${lists} where ${lists.id} = ${listId}::uuid and ${lists.tenantId} = ${tenantId}::uuid)
          end as total,
          (select xmin::text from ${lists} where ${lists.id} = ${listId}::uuid) as list_version,
          (select string_agg(xmin::text, ',' order by ${contactCounts.status}) from ${contactCounts} where ${contactCounts.tenantId} = ${tenantId}::uuid) as versions,
          (select max(${contacts.updatedAt})::text from ${contacts} where ${contacts.tenantId} = ${tenantId}::uuid) as updated`,
  );
  if (!row) throw new Error('fingerprint: no row');
  const text = `${intOf(row, 'tenant')}|${textOf(row, 'versions') ?? ''}|${textOf(row, 'updated') ?? ''}|${textOf(row, 'list_version') ?? ''}`; // prettier-ignore
  return { text, total: intOf(row, 'total') };
}

/**
 * Whether a write begun before the tenant's last contact write could still commit: an open
 * transaction of another session that started before max(updated_at), or a max(updated_at) not yet
 * in the past. Read BEFORE the fingerprint (see the header).
 */
async function writesSettled(db: Database, tenantId: string): Promise<boolean> {
  const [activity] = await queryRows(
    db,
    sql`select clock_timestamp()::text as at,
          (select min(xact_start)::text from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid() and xact_start is not null) as oldest`,
  );
  const at = activity ? textOf(activity, 'at') : null;
  const oldest = activity ? textOf(activity, 'oldest') : null;
  const [row] = await queryRows(
    db,
    sql`select coalesce(m < ${at}::timestamptz and (${oldest}::timestamptz is null or ${oldest}::timestamptz > m), true) as settled
        from (select max(${contacts.updatedAt}) as m from ${contacts} where ${contacts.tenantId} = ${tenantId}::uuid) t`,
  );
  return row?.settled === true;
}

/**
 * Every K-th row of a segment and its size. The tenant's contacts, or those of a status: one
 * index-only walk of the sort index (a recursive keyset hop of K entries). A list's members: read
 * from the list and sorted (a window over its members), not found by walking every contact of the
 * tenant and probing the list for each: a list of 40,000 in a million contacts costs tens of ms
 * instead of seconds.
 */
async function walkSegment(
  db: Database,
  tenantId: string,
  filter: AnchorFilter,
  spec: SortSpec,
  segment: SegmentSpec,
  every: number,
): Promise<Segment> {
  const inSegment = sql`${scopeWhere(tenantId, filter)} and ${segment.where}`;
  const found =
    filter !== null && 'listId' in filter
      ? await listAnchorRows(db, tenantId, filter.listId, spec, segment, every)
      : await hopAnchorRows(db, inSegment, spec, segment, every);
  const anchors = found.map((r, i): Anchor => ({ rank: (i + 1) * every - 1, ...r }));
  const last = anchors.at(-1);
  const tailWhere = last
    ? sql`${inSegment} and ${segment.after(spec.param(last.key), sql`${last.id}::uuid`)}`
    : inSegment;
  const [tail] = await readInIndexOrder(db, (q) =>
    queryRows(q, sql`select count(*)::int as n from (select 1 from ${contacts} where ${tailWhere} limit ${every}) t`),
  );
  return { anchors, size: anchors.length * every + intOf(tail ?? {}, 'n') };
}

/** Keys and ids of anchor rows, as read. */
function anchorRows(rows: Record<string, unknown>[]): Omit<Anchor, 'rank'>[] {
  return rows.map((r) => {
    const id = textOf(r, 'id');
    if (id === null) throw new Error('anchor without id');
    return { key: textOf(r, 'k'), id };
  });
}

/** Every K-th member of a list in the segment's order: the members read and ranked (through their index). */
async function listAnchorRows(
  db: Database,
  tenantId: string,
  listId: string,
  spec: SortSpec,
  segment: SegmentSpec,
  every: number,
): Promise<Omit<Anchor, 'rank'>[]> {
  const rows = await readThroughIndexes(db, (q) =>
    queryRows(
      q,
      sql`select k::text as k, id::text as id from (
            select ${spec.key} as k, ${contacts.id} as id, row_number() over (order by ${spec.key}, ${contacts.id}) as rn
            from ${listMembers} join ${contacts} on ${contacts.id} = ${listMembers.contactId}
            where ${listMembers.listId} = ${listId}::uuid and ${contacts.tenantId} = ${tenantId}::uuid and ${segment.where}
          ) ranked
          where rn % ${every} = 0 order by rn`,
    ),
  );
  return anchorRows(rows);
}

/**
 * Every K-th row of a segment along the sort index: a recursive keyset hop of K entries, at most as
 * many hops per statement as one statement of the database reads rows (db/storage.ts readRows: on a
 * server all of them in one), the next statement going on after the last anchor found.
 */
async function hopAnchorRows(
  db: Database,
  inSegment: SQL,
  spec: SortSpec,
  segment: SegmentSpec,
  every: number,
): Promise<Omit<Anchor, 'rank'>[]> {
  const hops = Math.max(1, Math.floor(storageCapabilities(db).readRows / every));
  const bounded = Number.isFinite(hops);
  const order = sql`order by ${spec.key}, ${contacts.id} offset ${every - 1} limit 1`;
  const found: Omit<Anchor, 'rank'>[] = [];
  for (;;) {
    const last = found.at(-1);
    const start = last
      ? sql`${inSegment} and ${segment.after(spec.param(last.key), sql`${last.id}::uuid`)}`
      : inSegment;
    const rows = await readInIndexOrder(db, (q) =>
      queryRows(
        q,
        bounded
          ? sql`with recursive w(k, id, n) as (
                (select ${spec.key}, ${contacts.id}, 1 from ${contacts} where ${start} ${order})
                union all
                (select c.k, c.id, w.n + 1 from w cross join lateral (
                  select ${spec.key} as k, ${contacts.id} as id from ${contacts}
                  where ${inSegment} and ${segment.after(sql`w.k`, sql`w.id`)} ${order}) c
                  where w.n < ${hops})
              )
              select k::text as k, id::text as id from w`
          : sql`with recursive w(k, id) as (
                (select ${spec.key}, ${contacts.id} from ${contacts} where ${start} ${order})
                union all
                (select c.k, c.id from w cross join lateral (
                  select ${spec.key} as k, ${contacts.id} as id from ${contacts}
                  where ${inSegment} and ${segment.after(sql`w.k`, sql`w.id`)} ${order}) c)
              )
              select k::text as k, id::text as id from w`,
      ),
    );
    found.push(...anchorRows(rows));
    if (!bounded || rows.length < hops) return found;
    await yieldToRequests();
  }
}

interface AnchorCache {
  sets: Map<string, AnchorSet>;
  building: Map<string, Promise<AnchorSet | null>>;
  /** The background run of prefetchAnchors, if one is under way. */
  prefetching: Promise<void> | null;
  /**
   * The requests that came during that run, one per set (tenant, first field, spacing, filter), oldest
   * first: started one after another when it ends (one run at a time). Per set, not only the latest:
   * another tenant's grid read every moment must not drop this tenant's pending build.
   */
  pending: Map<string, () => void>;
}

const caches = new WeakMap<Database, AnchorCache>();
/** Prefetches waiting for the running one, at most (one per set). */
const MAX_PENDING_PREFETCHES = 64;

function cacheOf(db: Database): AnchorCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = { sets: new Map(), building: new Map(), prefetching: null, pending: new Map() };
    caches.set(db, cache);
  }
  return cache;
}

async function buildAnchors(
  db: Database,
  tenantId: string,
  filter: AnchorFilter,
  field: ContactSortField,
  every: number,
): Promise<AnchorSet | null> {
  if (!(await writesSettled(db, tenantId))) return null;
  const print = await fingerprint(db, tenantId, filter);
  const spec = sortSpec(field);
  const segments: Segment[] = [];
  for (const segment of spec.segments) segments.push(await walkSegment(db, tenantId, filter, spec, segment, every));
  // A write committed between the fingerprint and the walk (of several statements, or the sizes do not
  // add up): keep nothing, the next request rebuilds.
  if (segments.reduce((n, s) => n + s.size, 0) !== print.total) return null;
  if ((await fingerprint(db, tenantId, filter)).text !== print.text) return null;
  return { fingerprint: print.text, segments };
}

/** Keeps a set as the most recently used, dropping the least recently used beyond CACHE_SIZE. */
function keep(cache: AnchorCache, name: string, set: AnchorSet): void {
  cache.sets.delete(name);
  cache.sets.set(name, set); // most recently used last
  for (const oldest of cache.sets.keys()) {
    if (cache.sets.size <= CACHE_SIZE) break;
    cache.sets.delete(oldest);
  }
}

/**
 * The set for `name` if it matches the fingerprint, else one built now (a build in flight for the
 * same name, in the background or for another request, is shared), or null when none can be built.
 */
async function anchorsFor(
  db: Database,
  tenantId: string,
  filter: AnchorFilter,
  field: ContactSortField,
  every: number,
  print: { text: string },
): Promise<AnchorSet | null> {
  const cache = cacheOf(db);
  const name = setName(tenantId, field, every, filter);
  const kept = cache.sets.get(name);
  if (kept && kept.fingerprint === print.text) {
    keep(cache, name, kept);
    return kept;
  }
  let building = cache.building.get(name);
  if (!building) {
    building = buildAnchors(db, tenantId, filter, field, every).finally(() => cache.building.delete(name));
    cache.building.set(name, building);
  }
  const built = await building;
  if (!built || built.fingerprint !== print.text) return null;
  keep(cache, name, built);
  return built;
}

/** The tenant's anchors for a sort field, if current (rebuilt when the fingerprint moved), else null. */
async function currentAnchors(
  db: Database,
  tenantId: string,
  filter: AnchorFilter,
  field: ContactSortField,
  total: number,
  every: number,
): Promise<AnchorSet | null> {
  const print = await fingerprint(db, tenantId, filter);
  // The count read just before disagrees: a write in between; this page reads with OFFSET.
  if (print.total !== total) return null;
  return anchorsFor(db, tenantId, filter, field, every, print);
}

/**
 * Starts building, in the background, the anchors of every sort field of a tenant that are missing
 * or stale (`first` first), so that a later deep page finds them ready instead of paying the build
 * (0.3-0.7 s per field at a million contacts). One background run per database at a time: while one
 * runs, further calls do nothing (the next grid request after it starts another if still needed).
 * Each build is the request path's own (anchorsFor): the same fingerprint, open-transaction check
 * and sum check, and a request needing the same set meanwhile waits for this build, not a second
 * one. Errors are dropped: a failed build leaves no anchors, and pages read with OFFSET as before.
 * Returns the run (for tests), or null when none was started.
 */
export function prefetchAnchors(
  db: Database,
  tenantId: string,
  first: ContactSortField,
  every: number = PAGE_ANCHORS.every,
  filter: AnchorFilter = null,
): Promise<void> | null {
  const cache = cacheOf(db);
  if (cache.prefetching) {
    // One run at a time per database; the requests met meanwhile run after it, one per set, so the sets
    // they need (another tenant, filter or spacing) are not dropped. Bounded: the oldest goes first.
    const key = setName(tenantId, first, every, filter);
    cache.pending.delete(key);
    cache.pending.set(key, () => void prefetchAnchors(db, tenantId, first, every, filter));
    if (cache.pending.size > MAX_PENDING_PREFETCHES) cache.pending.delete(cache.pending.keys().next().value ?? '');
    return null;
  }
  const fields = [first, ...CONTACT_SORT_FIELDS.filter((f) => f !== first)];
  const stale = (print: { text: string }) =>
    fields.filter((f) => cache.sets.get(setName(tenantId, f, every, filter))?.fingerprint !== print.text);
  const run = (async () => {
    // After the request that started it has been answered.
    await yieldToRequests();
    const print = await fingerprint(db, tenantId, filter);
    for (const field of stale(print)) {
      // Built for the fingerprint read now; a write since then: stop, a later request starts again.
      if (!(await anchorsFor(db, tenantId, filter, field, every, print))) return;
    }
  })()
    .catch(() => undefined)
    .finally(() => {
      cache.prefetching = null;
      const [key, next] = cache.pending.entries().next().value ?? [];
      if (key !== undefined) cache.pending.delete(key);
      next?.();
    });
  cache.prefetching = run;
  return run;
}

/** Whether a tenant's anchors for a field are kept (current or not: no fingerprint is read). For tests. */
export function anchorsKept(
  db: Database,
  tenantId: string,
  field: ContactSortField,
  every: number,
  filter: AnchorFilter = null,
): boolean {
  return cacheOf(db).sets.has(setName(tenantId, field, every, filter));
}

/** Rows [from, from + n) of a segment in ascending order: a keyset read after the nearest anchor. */
function segmentRows(
  db: Database,
  tenantId: string,
  filter: AnchorFilter,
  spec: SortSpec,
  segment: SegmentSpec,
  anchors: readonly Anchor[],
  from: number,
  n: number,
  every: number,
): PromiseLike<ContactRow[]> {
  // anchors[i] is at rank (i + 1) * every - 1: the last one before `from`.
  const anchor = anchors[Math.min(anchors.length, Math.floor(from / every)) - 1];
  const conditions = [scopeWhere(tenantId, filter), segment.where];
  if (anchor) conditions.push(segment.after(spec.param(anchor.key), sql`${anchor.id}::uuid`));
  // Deferred join: the skipped entries come from the index alone, only the page's rows from the table.
  const keys = db
    .select({ id: contacts.id, k: sql`${spec.key}`.as('k') })
    .from(contacts)
    .where(and(...conditions))
    .orderBy(asc(spec.key), asc(contacts.id))
    .limit(n)
    .offset(from - (anchor ? anchor.rank + 1 : 0))
    .as('page_keys');
  return db
    .select(getTableColumns(contacts))
    .from(contacts)
    .innerJoin(keys, eq(contacts.id, keys.id))
    .orderBy(asc(keys.k), asc(keys.id));
}

/**
 * Rows [offset, offset + limit) of the tenant's whole grid, or of its contacts of one status or list
 * (`total` contacts, from the counters), in the order of `field` and `order`, read through anchors;
 * null when there are none to use now (the caller reads with OFFSET). The rows are those of the
 * plain OFFSET query, in the same order.
 */
export async function anchoredPage(
  db: Database,
  tenantId: string,
  field: ContactSortField,
  order: SortOrder,
  offset: number,
  limit: number,
  total: number,
  options: AnchorOptions = PAGE_ANCHORS,
  filter: AnchorFilter = null,
): Promise<ContactRow[] | null> {
  const take = Math.max(0, Math.min(limit, total - offset));
  if (take === 0) return [];
  const set = await currentAnchors(db, tenantId, filter, field, total, options.every);
  if (!set) return null;
  return readThroughSet(db, tenantId, filter, field, order, order === 'asc' ? offset : total - offset - take, take, set, options.every); // prettier-ignore
}

/**
 * The same page while the set's contacts keep changing (no anchors can be kept), where one statement
 * of the database reads a bounded number of rows (db/storage.ts readRows): anchors found now, that many
 * rows apart, in statements of one hop each, used for this page only. A write between two of them
 * shifts the page by as much, as it would shift the next page read. Null where one statement takes any
 * number of rows (the caller reads with OFFSET).
 */
export async function hoppedPage(
  db: Database,
  tenantId: string,
  field: ContactSortField,
  order: SortOrder,
  offset: number,
  limit: number,
  total: number,
  filter: AnchorFilter = null,
): Promise<ContactRow[] | null> {
  const every = storageCapabilities(db).readRows;
  if (!Number.isFinite(every)) return null;
  const take = Math.max(0, Math.min(limit, total - offset));
  if (take === 0) return [];
  const spec = sortSpec(field);
  const segments: Segment[] = [];
  for (const segment of spec.segments) segments.push(await walkSegment(db, tenantId, filter, spec, segment, every));
  const set = { fingerprint: '', segments };
  return readThroughSet(db, tenantId, filter, field, order, order === 'asc' ? offset : total - offset - take, take, set, every); // prettier-ignore
}

/** Rows of ascending ranks [first, first + take) read after a set's anchors, in the order asked for. */
async function readThroughSet(
  db: Database,
  tenantId: string,
  filter: AnchorFilter,
  field: ContactSortField,
  order: SortOrder,
  first: number,
  take: number,
  set: AnchorSet,
  every: number,
): Promise<ContactRow[]> {
  const spec = sortSpec(field);
  const reads: ((q: Database) => PromiseLike<ContactRow[]>)[] = [];
  let start = 0;
  for (const [i, segment] of set.segments.entries()) {
    const from = Math.max(first, start);
    const to = Math.min(first + take, start + segment.size);
    const segmentSpec = spec.segments[i];
    if (from < to && segmentSpec) {
      const skip = from - start;
      reads.push((q) => segmentRows(q, tenantId, filter, spec, segmentSpec, segment.anchors, skip, to - from, every));
    }
    start += segment.size;
  }
  // In index order whatever the statistics say (db/storage.ts): a read skips fewer than K entries.
  const rows = await readInIndexOrder(db, async (q) => {
    const read: ContactRow[] = [];
    for (const r of reads) read.push(...(await r(q)));
    return read;
  });
  return order === 'asc' ? rows : rows.reverse();
}
