/**
 * CSV export of the contacts that match a filter (GET /v1/contacts/export). Streamed: contacts are
 * read by keyset in batches (contact-query.ts) and each batch is written out before the next is
 * read, so a million rows never sit in memory. Every cell goes through `csvCell` (RFC 4180 quoting,
 * and a leading ' before =, +, -, @, tab or CR so spreadsheets show formulas as text).
 */
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/index';
import { lists, type ContactRow, type CustomAttributeRow } from '../../db/schema';
import { CSV_BOM, csvLine } from '../../lib/csv';
import { headedChunks } from '../../lib/streamed-file';
import { contactBatches, type ContactScope } from './contact-query';

export const EXPORT_BASE_COLUMNS = [
  'email',
  'wallet',
  'first_name',
  'last_name',
  'status',
  'source',
  'created_at',
  'updated_at',
  'lists',
] as const;

/** Separator of list names in the `lists` column. */
export const LIST_SEPARATOR = '; ';

export function exportHeader(attributes: readonly Pick<CustomAttributeRow, 'key'>[]): string {
  return csvLine([...EXPORT_BASE_COLUMNS, ...attributes.map((a) => a.key)]);
}

/** One contact as a CSV line: its list names (in code-point order) and one cell per attribute, in header order. */
export function exportRow(
  row: ContactRow,
  listNames: readonly string[],
  attributes: readonly Pick<CustomAttributeRow, 'id'>[],
): string {
  const values = attributes.map((a) => {
    const value = row.attributes[a.id];
    return value === undefined ? null : value;
  });
  return csvLine([
    row.email,
    row.wallet,
    row.firstName,
    row.lastName,
    row.status,
    row.source,
    row.createdAt.toISOString(),
    row.updatedAt.toISOString(),
    [...listNames].sort().join(LIST_SEPARATOR),
    ...values,
  ]);
}

/** `contacts-2026-05-01.csv` */
export function exportFileName(now: Date): string {
  return `contacts-${now.toISOString().slice(0, 10)}.csv`;
}

/** The file as chunks of text, one per batch of contacts; the first holds the BOM and the header too. */
export async function* exportContacts(db: Database, scope: ContactScope): AsyncGenerator<string> {
  const listNames = new Map(
    (await db.select({ id: lists.id, name: lists.name }).from(lists).where(eq(lists.tenantId, scope.tenantId))).map(
      (l) => [l.id, l.name],
    ),
  );
  async function* rows(): AsyncGenerator<string> {
    for await (const batch of contactBatches(db, scope)) {
      yield batch
        .map((r) => {
          const names = r.listIds.flatMap((id) => listNames.get(id) ?? []);
          return exportRow(r, names, scope.attributes);
        })
        .join('');
    }
  }
  yield* headedChunks(CSV_BOM + exportHeader(scope.attributes), rows());
}
