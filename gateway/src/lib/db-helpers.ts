/** Small database helpers: ids, unique violations, statement row counts (the same on either engine). */
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/index';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a path or body id can be a row id at all (anything else is simply "not found"). */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

/** Distinct well-formed ids of a list given by a client (malformed ones can match nothing). */
export function validIds(ids: readonly string[]): string[] {
  return [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
}

function field(error: unknown, name: 'code' | 'constraint'): string | undefined {
  if (typeof error !== 'object' || error === null || !(name in error)) return undefined;
  const value: unknown = Reflect.get(error, name);
  return typeof value === 'string' ? value : undefined;
}

/** A PostgreSQL error's code (e.g. 23505) and constraint, looked up through Drizzle's wrapping (`cause`). */
export function pgError(error: unknown): { code: string; constraint: string } | null {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    const code = field(e, 'code');
    if (code && /^[0-9A-Z]{5}$/.test(code)) return { code, constraint: field(e, 'constraint') ?? '' };
    e = typeof e === 'object' && e !== null && 'cause' in e ? e.cause : null;
  }
  return null;
}

/** The index a unique violation (23505) hit ('' when the driver did not say), or null for any other error. */
export function uniqueViolation(error: unknown): string | null {
  const e = pgError(error);
  return e?.code === '23505' ? e.constraint : null;
}

/** Whether the error is a foreign-key violation (23503): a referenced row went away meanwhile. */
export function foreignKeyViolation(error: unknown): boolean {
  return pgError(error)?.code === '23503';
}

/**
 * Runs a data-changing statement (`update ... where`, `delete ...`, `insert ... select`) and
 * returns how many rows it changed, the same way on node-postgres and PGlite (their result
 * objects differ): the statement runs in a CTE with `returning 1` and only the count comes back.
 */
export async function changedRows(db: Database, statement: SQL): Promise<number> {
  const result: unknown = await db.execute(
    sql`with changed as (${statement} returning 1) select count(*)::int as n from changed`,
  );
  const rows = typeof result === 'object' && result !== null && 'rows' in result ? result.rows : null;
  const first: unknown = Array.isArray(rows) ? rows[0] : null;
  const n = typeof first === 'object' && first !== null && 'n' in first ? Number(first.n) : NaN;
  if (!Number.isFinite(n)) throw new Error('changedRows: the database answered no count');
  return n;
}
