/**
 * The grid's sort orders as runs a row comparison can walk, for the page anchors (contact-anchors.ts).
 *
 * E-mail and wallet may be NULL, and NULLs sort last ascending (first descending), ordered by id.
 * A row comparison with NULL is never true, so such a sort is two segments: the contacts with a
 * value, walked on (key, id), then those without, walked on id (`key is null and id > cursor`).
 * Every walk follows contacts_tenant_<field>_order_idx (or the time indexes).
 */
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { ContactSortField } from '../../contracts';
import { contacts } from '../../db/schema';

/** One run of a sort's ascending order that a row comparison can walk. */
export interface SegmentSpec {
  /** The segment's rows (besides the tenant). */
  where: SQL;
  /** Rows after the given key and id (both SQL expressions) within the segment, ascending. */
  after(key: SQL, id: SQL): SQL;
  /** Rows before them (for a descending walk). */
  before(key: SQL, id: SQL): SQL;
}

export interface SortSpec {
  /** Exactly SORT_KEYS' expression for the field (contact-query.ts), i.e. the index expression. */
  key: SQL;
  /** How a key kept as text is read back. */
  param(key: string | null): SQL;
  /** In ascending order. */
  segments: SegmentSpec[];
}

export function sortSpec(field: ContactSortField): SortSpec {
  const valued = (key: SQL): Pick<SegmentSpec, 'after' | 'before'> => ({
    after: (k, id) => sql`(${key}, ${contacts.id}) > (${k}, ${id})`,
    before: (k, id) => sql`(${key}, ${contacts.id}) < (${k}, ${id})`,
  });
  const time = (column: SQLWrapper): SortSpec => ({
    key: sql`${column}`,
    param: (k) => sql`${k}::timestamptz`,
    segments: [{ where: sql`true`, ...valued(sql`${column}`) }],
  });
  const text = (column: SQLWrapper, nullable: boolean): SortSpec => {
    const key = sql`lower(${column}) collate "C"`;
    const withValue: SegmentSpec = { where: sql`${key} is not null`, ...valued(key) };
    const none: SegmentSpec = {
      where: sql`${key} is null`,
      after: (_k, id) => sql`${contacts.id} > ${id}`,
      before: (_k, id) => sql`${contacts.id} < ${id}`,
    };
    return {
      key,
      param: (k) => sql`(${k}::text collate "C")`,
      segments: nullable ? [withValue, none] : [{ where: sql`true`, ...valued(key) }],
    };
  };
  switch (field) {
    case 'created_at':
      return time(contacts.createdAt);
    case 'updated_at':
      return time(contacts.updatedAt);
    case 'email':
      return text(contacts.email, true);
    case 'wallet':
      return text(contacts.wallet, true);
    case 'last_name':
      return text(contacts.lastName, false);
  }
}
