/**
 * The per-tenant upload limit: the bytes of a tenant's import files on the gateway's disk (uploads in
 * flight, uploaded files waiting to be started, queued and running imports) stay within
 * `config.imports.tenantLimitBytes`. An upload reserves what it may still write (its Content-Length, or
 * the largest file when the length is not declared) before its first byte is stored; the reservation
 * becomes the import job's size, or is released when the upload fails. Decided under a per-tenant
 * advisory lock, so parallel uploads, also on other gateway processes, cannot overshoot together.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/index';
import { importJobs, importUploads } from '../../db/schema';
import { isUuid } from '../../lib/db-helpers';
import { intOf, queryRows } from '../../lib/raw-sql';

export const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));

export const UPLOAD_LIMIT_MESSAGE = (limit: number) =>
  `Your community's import files are at their ${mb(limit)} MB limit: start the imports you uploaded or wait ` +
  'for the running ones to finish (files never started are removed after a day), then upload again.';

/** The tenant's bytes on disk and reserved by uploads in flight. */
export async function tenantUploadBytes(db: Pick<Database, 'execute'>, tenantId: string): Promise<number> {
  const [row] = await queryRows(
    db,
    sql`select
      coalesce((select sum(${importJobs.totalBytes}) from ${importJobs}
        where ${importJobs.tenantId} = ${tenantId}
          and ${importJobs.status} in ('uploaded', 'queued', 'running')), 0)
      + coalesce((select sum(${importUploads.bytes}) from ${importUploads}
        where ${importUploads.tenantId} = ${tenantId}), 0) as used`,
  );
  return row ? intOf(row, 'used') : 0;
}

/** Reserves `bytes` for upload `id` when the tenant has room: true, else false (nothing stored). */
export async function reserveUpload(
  db: Database,
  upload: { id: string; tenantId: string; bytes: number },
  limit: number,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`import-upload:${upload.tenantId}`}, 0))`);
    if ((await tenantUploadBytes(tx, upload.tenantId)) + upload.bytes > limit) return false;
    await tx.insert(importUploads).values({ ...upload, createdAt: new Date() });
    return true;
  });
}

/** The upload ended without an import job: its reservation goes (nothing when it became a job). */
export async function releaseUpload(db: Database, id: string): Promise<void> {
  await db.delete(importUploads).where(eq(importUploads.id, id));
}

/** Reservations of uploads in flight, by id (the housekeeping sweep asks which are still alive). */
export async function uploadReservations(db: Database): Promise<{ id: string; createdAt: Date }[]> {
  return db.select({ id: importUploads.id, createdAt: importUploads.createdAt }).from(importUploads);
}

/** Import jobs among `ids` (files named by them are not orphans). */
export async function existingImportIds(db: Database, ids: readonly string[]): Promise<Set<string>> {
  const uuids = ids.filter(isUuid);
  if (uuids.length === 0) return new Set();
  const rows = await db.select({ id: importJobs.id }).from(importJobs).where(inArray(importJobs.id, uuids));
  return new Set(rows.map((r) => r.id));
}
