/** The `uploads` table: one row per presigned upload, tying a file key to its owner and a content type. */
import { and, count, desc, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import type { ImageType, UploadPurpose } from '../../contracts';
import { pageWindow } from '../../lib/pagination';
import type { Database } from '../../db/index';
import { ownerColumns, type UploadOwner } from './upload-owner';
import { uploads } from '../../db/schema';

export type UploadRow = typeof uploads.$inferSelect;

export async function recordUpload(
  db: Database,
  row: {
    fileKey: string;
    owner: UploadOwner;
    contentType: ImageType;
    expiresAt: Date;
    purpose?: UploadPurpose | undefined;
    name?: string | undefined;
  },
): Promise<void> {
  const { owner, ...rest } = row;
  await db
    .insert(uploads)
    .values({ ...rest, ...ownerColumns(owner), purpose: row.purpose ?? null, name: row.name ?? null });
}

/** A page of the tenant's stored uploads made for `purpose`, newest first, and how many there are. */
export async function listStoredUploads(
  db: Database,
  tenantId: string,
  purpose: UploadPurpose,
  page: number,
  perPage: number,
): Promise<{ rows: UploadRow[]; total: number }> {
  const where = and(eq(uploads.tenantId, tenantId), eq(uploads.purpose, purpose), isNotNull(uploads.storedAt));
  const { offset, limit } = pageWindow(page, perPage);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(uploads)
      .where(where)
      .orderBy(desc(uploads.storedAt), desc(uploads.fileKey))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(uploads).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/**
 * The tenant's uploads for `purpose` whose bytes were not seen yet and whose URL is still usable or
 * expired within the last day (with S3 the bytes go straight to the bucket: a row is marked stored when
 * it is first checked). At most `limit`, newest first.
 */
export async function pendingUploads(
  db: Database,
  tenantId: string,
  purpose: UploadPurpose,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .select({ fileKey: uploads.fileKey })
    .from(uploads)
    .where(
      and(
        eq(uploads.tenantId, tenantId),
        eq(uploads.purpose, purpose),
        isNull(uploads.storedAt),
        gt(uploads.expiresAt, sql`now() - interval '1 day'`),
      ),
    )
    .orderBy(desc(uploads.createdAt))
    .limit(limit);
  return rows.map((r) => r.fileKey);
}

export async function findUpload(db: Database, fileKey: string): Promise<UploadRow | null> {
  const [row] = await db.select().from(uploads).where(eq(uploads.fileKey, fileKey));
  return row ?? null;
}

/**
 * Marks an upload stored, once: false when it was already stored, has expired or does not exist
 * (two PUTs racing on one URL: only one wins).
 */
export async function claimUpload(db: Database, fileKey: string, size: number): Promise<boolean> {
  const claimed = await db
    .update(uploads)
    .set({ storedAt: sql`now()`, size })
    .where(and(eq(uploads.fileKey, fileKey), isNull(uploads.storedAt), gt(uploads.expiresAt, sql`now()`)))
    .returning({ fileKey: uploads.fileKey });
  return claimed.length === 1;
}

/** Undoes a claim whose bytes could not be written, so the URL can be used again until it expires. */
export async function releaseUpload(db: Database, fileKey: string): Promise<void> {
  await db.update(uploads).set({ storedAt: null, size: null }).where(eq(uploads.fileKey, fileKey));
}

/** Whether the owner's upload of `fileKey` holds stored bytes. */
export async function isStoredUploadOf(db: Database, owner: UploadOwner, fileKey: string): Promise<boolean> {
  const byOwner = 'tenantId' in owner ? eq(uploads.tenantId, owner.tenantId) : eq(uploads.userId, owner.userId);
  const [row] = await db
    .select({ storedAt: uploads.storedAt })
    .from(uploads)
    .where(and(eq(uploads.fileKey, fileKey), byOwner));
  return row?.storedAt != null;
}

export async function markStored(db: Database, fileKey: string, size: number): Promise<void> {
  await db
    .update(uploads)
    .set({ storedAt: sql`now()`, size })
    .where(eq(uploads.fileKey, fileKey));
}
