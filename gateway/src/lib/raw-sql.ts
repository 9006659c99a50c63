/** Raw SQL results of the importer, read the same way on node-postgres and PGlite. */
import type { SQL } from 'drizzle-orm';
import type { Database } from '../db/database';

/** The database or a transaction: anything that runs a statement. */
export type Queryable = Pick<Database, 'execute'>;

export type Row = Record<string, unknown>;

function isRow(value: unknown): value is Row {
  return typeof value === 'object' && value !== null;
}

/** The rows a statement returns. */
export async function queryRows(db: Queryable, query: SQL): Promise<Row[]> {
  const result: unknown = await db.execute(query);
  const rows = isRow(result) && 'rows' in result ? result.rows : null;
  if (!Array.isArray(rows)) throw new Error('the database answered without rows');
  return rows.filter(isRow);
}

/** A text (or uuid) column; null when SQL NULL. */
export function textOf(row: Row, column: string): string | null {
  const value = row[column];
  if (value === null || value === undefined) return null;
  return String(value);
}

/** An integer column (bigint arrives as a string on node-postgres). */
export function intOf(row: Row, column: string): number {
  const n = Number(row[column] ?? 0);
  if (!Number.isFinite(n)) throw new Error(`column ${column} is not a number`);
  return n;
}

/** A JSON parameter: one text value, read in SQL with `::json` (json_to_recordset and friends). */
export function json(value: unknown): string {
  return JSON.stringify(value);
}
