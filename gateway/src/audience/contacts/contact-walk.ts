/**
 * Walks of one tenant's contacts in windows, for embedded PGlite (see lib/bounded-work.ts): every
 * statement reads at most `rows` contacts of the tenant, the next WINDOW in a sort order after a
 * keyset cursor (`(key, id) > cursor order by key, id limit rows`, walking the sort index), and
 * applies the filter to those rows only; between statements the event loop takes a turn. So counting
 * the matches of any filter, finding the page at any offset, sampling page anchors and exporting cost
 * a bounded amount of work per statement whatever the tenant's size and however rare the matches:
 * the whole walk grows with the tenant, but other tenants' requests run between its windows.
 *
 * The filter is any condition over `contacts` (contact-query.ts's scope, segments' rules): the window
 * is a CTE read back under the alias `contacts`, so the filter's column references resolve to it.
 */
import { inArray, sql, type SQL } from 'drizzle-orm';
import type { ContactSortField, SortOrder } from '../../contracts';
import type { Database } from '../../db/index';
import { contacts, type ContactRow } from '../../db/schema';
import { inIndexOrder, nextTurn } from '../../lib/bounded-work';
import { intOf, queryRows, textOf, type Row } from '../../lib/raw-sql';
import { sortSpec, type SegmentSpec, type SortSpec } from './contact-sort';

/** Contacts read per statement of a walk that applies a filter (whole rows). */
export const WALK_ROWS = 1000;
/** Contacts read per statement of a walk of keys only (page anchors, unfiltered counts). */
export const KEY_WALK_ROWS = 2500;

/** Where a walk stopped within a segment: the last row's key (as text) and id. */
interface Cursor {
  key: string | null;
  id: string;
}

/** What one window answered. */
interface WindowResult {
  /** Rows of the tenant read (fewer than asked: the segment ended). */
  seen: number;
  /** Of those, rows matching the filter. */
  matched: number;
  last: Cursor | null;
  /** Ids of the matches ranked (pick.skip, pick.skip + pick.take] in the window, in walk order. */
  ids: string[];
  /** Keys and ids of the rows at walk ranks `sample.base + rn` that are multiples of `sample.every`. */
  samples: Cursor[];
}

interface WindowRequest {
  tenantId: string;
  spec: SortSpec;
  segment: SegmentSpec;
  descending: boolean;
  cursor: Cursor | null;
  rows: number;
  /** A condition over `contacts`; null: every row matches (the window reads keys only). */
  filter: SQL | null;
  pick: { skip: number; take: number };
  sample: { base: number; every: number } | null;
}

function texts(row: Row, column: string): (string | null)[] {
  const value = row[column];
  return Array.isArray(value) ? value.map((v: unknown) => (v === null || v === undefined ? null : String(v))) : [];
}

async function readWindow(db: Database, w: WindowRequest): Promise<WindowResult> {
  const { spec, segment } = w;
  const dir = w.descending ? sql`desc` : sql`asc`;
  const conditions = [sql`${contacts.tenantId} = ${w.tenantId}::uuid`, segment.where];
  if (w.cursor) {
    const at = [spec.param(w.cursor.key), sql`${w.cursor.id}::uuid`] as const;
    conditions.push(w.descending ? segment.before(...at) : segment.after(...at));
  }
  const columns = w.filter ? sql`${contacts}.*` : sql`${contacts.id}`;
  const sample = w.sample ?? { base: 0, every: 0 };
  const query = sql`with win as materialized (
      select ${columns}, ${spec.key} as walk_key from ${contacts}
      where ${sql.join(conditions, sql` and `)}
      order by ${spec.key} ${dir}, ${contacts.id} ${dir}
      limit ${w.rows}
    ),
    ranked as (select id, walk_key, row_number() over (order by walk_key ${dir}, id ${dir}) as rn from win),
    matched as (
      select id, row_number() over (order by walk_key ${dir}, id ${dir}) as rn
      from win as ${contacts} where ${w.filter ?? sql`true`}
    )
    select
      (select count(*) from ranked)::int as seen,
      (select count(*) from matched)::int as matched,
      (select walk_key::text from ranked order by rn desc limit 1) as last_key,
      (select id::text from ranked order by rn desc limit 1) as last_id,
      (select coalesce(array_agg(id::text order by rn), '{}') from matched
        where rn > ${w.pick.skip} and rn <= ${w.pick.skip + w.pick.take}) as ids,
      (select coalesce(array_agg(walk_key::text order by rn), '{}') from ranked
        where ${sample.every} > 0 and (${sample.base} + rn) % greatest(${sample.every}, 1) = 0) as sample_keys,
      (select coalesce(array_agg(id::text order by rn), '{}') from ranked
        where ${sample.every} > 0 and (${sample.base} + rn) % greatest(${sample.every}, 1) = 0) as sample_ids`;
  const [row] = await inIndexOrder(db, (q) => queryRows(q, query));
  if (!row) throw new Error('walk: no row');
  const lastId = textOf(row, 'last_id');
  const keys = texts(row, 'sample_keys');
  return {
    seen: intOf(row, 'seen'),
    matched: intOf(row, 'matched'),
    last: lastId ? { key: textOf(row, 'last_key'), id: lastId } : null,
    ids: texts(row, 'ids').filter((id): id is string => id !== null),
    samples: texts(row, 'sample_ids').map((id, i) => ({ key: keys[i] ?? null, id: id ?? '' })),
  };
}

/** The segments of a sort in walk order. */
function segmentsInOrder(spec: SortSpec, order: SortOrder): SegmentSpec[] {
  return order === 'asc' ? spec.segments : [...spec.segments].reverse();
}

/**
 * Every window of a walk in turn: `visit` gets each window's result and returns false to stop. The
 * event loop takes a turn before every window (the first too: a walk often follows a few statements
 * of the request or build that starts it).
 */
async function walk(
  db: Database,
  tenantId: string,
  field: ContactSortField,
  order: SortOrder,
  filter: SQL | null,
  rows: number,
  next: (segment: number) => Pick<WindowRequest, 'pick' | 'sample'>,
  visit: (segment: number, result: WindowResult) => boolean | Promise<boolean>,
): Promise<void> {
  const spec = sortSpec(field);
  for (const [i, segment] of segmentsInOrder(spec, order).entries()) {
    let cursor: Cursor | null = null;
    for (;;) {
      await nextTurn();
      const request = next(i);
      const result = await readWindow(db, {
        tenantId,
        spec,
        segment,
        descending: order === 'desc',
        cursor,
        rows,
        filter,
        ...request,
      });
      if (!(await visit(i, result))) return;
      if (result.seen < rows || !result.last) break;
      cursor = result.last;
    }
  }
}

/** How many of the tenant's contacts match `filter`: a walk of the creation-time index. */
export async function walkCount(db: Database, tenantId: string, filter: SQL | null, rows = WALK_ROWS): Promise<number> {
  let n = 0;
  const none = { pick: { skip: 0, take: 0 }, sample: null };
  await walk(
    db,
    tenantId,
    'created_at',
    'asc',
    filter,
    filter ? rows : Math.max(rows, KEY_WALK_ROWS),
    () => none,
    (_, r) => {
      n += r.matched;
      return true;
    },
  );
  return n;
}

/**
 * The ids of the matches at ranks [skip, skip + take) of `field` in `order` (fewer at the end), found
 * by walking windows from the start of that order. Callers read from the nearer end (pagePlan).
 */
export async function walkPageIds(
  db: Database,
  tenantId: string,
  field: ContactSortField,
  order: SortOrder,
  filter: SQL | null,
  skip: number,
  take: number,
  rows = WALK_ROWS,
): Promise<string[]> {
  const ids: string[] = [];
  let toSkip = skip;
  let toTake = take;
  if (toTake <= 0) return ids;
  await walk(
    db,
    tenantId,
    field,
    order,
    filter,
    filter ? rows : Math.max(rows, KEY_WALK_ROWS),
    () => ({ pick: { skip: toSkip, take: toTake }, sample: null }),
    (_, r) => {
      ids.push(...r.ids);
      if (r.matched <= toSkip) toSkip -= r.matched;
      else {
        toTake -= r.ids.length;
        toSkip = 0;
      }
      return toTake > 0;
    },
  );
  return ids;
}

/** The rows of `ids`, in that order (ids no longer there are left out). */
export async function rowsInOrder(db: Database, ids: readonly string[]): Promise<ContactRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(contacts)
    .where(inArray(contacts.id, [...ids]));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** An anchor: the row at `rank` (0-based, ascending, within its segment). */
export interface WalkAnchor {
  rank: number;
  key: string | null;
  id: string;
}

/** A walk for anchors asks whether they can still be kept every this many windows. */
const ANCHOR_CHECK_EVERY = 10;

/**
 * Every `every`-th row of each segment of a sort (ascending) and the segment's size, for the page
 * anchors of the tenant's whole grid (contact-anchors.ts), by windows of keys. Every
 * ANCHOR_CHECK_EVERY windows `current()` says whether the tenant is unchanged since the walk began;
 * when not, the walk stops and answers null (a tenant written to all the time would otherwise keep
 * the database busy with walks whose anchors are stale before they end).
 */
export async function walkAnchors(
  db: Database,
  tenantId: string,
  field: ContactSortField,
  every: number,
  current: () => Promise<boolean>,
  rows = KEY_WALK_ROWS,
): Promise<{ anchors: WalkAnchor[]; size: number }[] | null> {
  const segments = sortSpec(field).segments.map(() => ({ anchors: [] as WalkAnchor[], size: 0 }));
  let windows = 0;
  let stale = false;
  await walk(
    db,
    tenantId,
    field,
    'asc',
    null,
    rows,
    (i) => ({ pick: { skip: 0, take: 0 }, sample: { base: segments[i]?.size ?? 0, every } }),
    async (i, r) => {
      const segment = segments[i];
      if (!segment) return false;
      for (const s of r.samples) segment.anchors.push({ rank: (segment.anchors.length + 1) * every - 1, ...s });
      segment.size += r.seen;
      if (++windows % ANCHOR_CHECK_EVERY === 0 && !(await current())) stale = true;
      return !stale;
    },
  );
  return stale ? null : segments;
}

/**
 * The matching contacts oldest first, one window at a time (the ids of its matches), for the CSV
 * export: each window is a bounded statement, and the event loop takes a turn between them.
 */
export async function* walkMatchIds(
  db: Database,
  tenantId: string,
  filter: SQL,
  rows = WALK_ROWS,
): AsyncGenerator<string[]> {
  const spec = sortSpec('created_at');
  const segment = spec.segments[0];
  if (!segment) return;
  let cursor: Cursor | null = null;
  for (;;) {
    await nextTurn();
    const r = await readWindow(db, {
      tenantId,
      spec,
      segment,
      descending: false,
      cursor,
      rows,
      filter,
      pick: { skip: 0, take: rows },
      sample: null,
    });
    if (r.ids.length > 0) yield r.ids;
    if (r.seen < rows || !r.last) return;
    cursor = r.last;
  }
}
