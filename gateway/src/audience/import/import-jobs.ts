/**
 * CSV import jobs as the API sees them: create (after the upload), list, read, start, cancel and
 * the failed-rows report. Every call is scoped to the caller's tenant; another tenant's job is 404.
 */
import { and, asc, count, desc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import type { ImportJob, ImportJobPage, ImportListQuery, StartImportBody } from '../../contracts';
import type { Database } from '../../db/index';
import { customAttributes, importFailures, importJobs, importUploads, lists, type ImportJobRow } from '../../db/schema';
import { badRequest, conflict, notFound, type FieldErrors } from '../../errors';
import { CSV_BOM, csvLine } from '../../lib/csv';
import { headedChunks } from '../../lib/streamed-file';
import { likePattern, paginate, pageWindow } from '../../lib/pagination';
import { INVALID_INPUT } from '../../errors';
import { isUuid, uniqueViolation } from '../../lib/db-helpers';
import { yieldToRequests } from '../../db/storage';
import { checkMapping } from './import-mapping';
import { DUPLICATE_LIST_NAME } from '../lists/list-store';

export const IMPORT_MESSAGES = {
  notFound: 'Import not found.',
  alreadyStarted: 'This import has already been started.',
  notRunning: 'Only a queued or running import can be cancelled.',
  unknownList: 'Choose one of your lists.',
  listAndNewList: 'Choose an existing list or a new one, not both.',
} as const;

/** The report's columns. */
export const FAILURE_REPORT_HEADER = ['row', 'reason', 'raw'] as const;
const REPORT_PAGE = 2000;

export function toImportJob(row: ImportJobRow): ImportJob {
  return {
    _id: row.id,
    status: row.status,
    file_name: row.fileName,
    total_bytes: row.totalBytes,
    bytes_done: row.status === 'completed' ? row.totalBytes : row.byteOffset,
    rows_done: row.rowsDone,
    created: row.createdCount,
    updated: row.updatedCount,
    skipped: row.skippedCount,
    failed: row.failedCount,
    mapping: row.mapping,
    has_header: row.hasHeader,
    mode: row.mode,
    list_id: row.listId,
    error: row.error,
    created_at: row.createdAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

function tenantJob(tenantId: string, id: string): SQL | undefined {
  return and(eq(importJobs.id, id), eq(importJobs.tenantId, tenantId));
}

export interface NewImportJob {
  id: string;
  tenantId: string;
  userId: string | null;
  fileName: string;
  /** Relative to the data directory. */
  filePath: string;
  totalBytes: number;
}

/** The uploaded file becomes an import job; the upload's reservation (upload-quota.ts) goes with it. */
export async function createImportJob(db: Database, job: NewImportJob): Promise<ImportJobRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(importJobs).values(job).returning();
    if (!row) throw new Error('import job was not stored');
    await tx.delete(importUploads).where(eq(importUploads.id, job.id));
    return row;
  });
}

/** GET /v1/imports: newest first by default; the search matches file names. */
export async function listImportJobs(db: Database, tenantId: string, q: ImportListQuery): Promise<ImportJobPage> {
  const search = q.searchString.trim();
  const where = and(
    eq(importJobs.tenantId, tenantId),
    search ? ilike(importJobs.fileName, likePattern(search)) : undefined,
  );
  const [total] = await db.select({ n: count() }).from(importJobs).where(where);
  const direction = q.sortOrder === 'asc' ? asc : desc;
  const { offset, limit } = pageWindow(q.page, q.perPage);
  const rows = await db
    .select()
    .from(importJobs)
    .where(where)
    .orderBy(direction(importJobs.createdAt), direction(importJobs.id))
    .limit(limit)
    .offset(offset);
  return { records: rows.map(toImportJob), pagination: paginate(q.page, q.perPage, total?.n ?? 0) };
}

export async function getImportJob(db: Database, tenantId: string, id: string): Promise<ImportJobRow> {
  const [row] = isUuid(id) ? await db.select().from(importJobs).where(tenantJob(tenantId, id)) : [];
  if (!row) throw notFound(IMPORT_MESSAGES.notFound);
  return row;
}

/** The field errors of a start request that can be told before writing anything. */
async function startErrors(db: Database, tenantId: string, body: StartImportBody): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  const attributes = await db
    .select({
      id: customAttributes.id,
      key: customAttributes.key,
      name: customAttributes.name,
      type: customAttributes.type,
    })
    .from(customAttributes)
    .where(eq(customAttributes.tenantId, tenantId));
  const mapping = checkMapping(body.mapping, attributes);
  if (mapping.length > 0) errors.mapping = mapping;
  if (body.listId !== undefined) {
    const [list] = isUuid(body.listId)
      ? await db
          .select({ id: lists.id })
          .from(lists)
          .where(and(eq(lists.id, body.listId), eq(lists.tenantId, tenantId)))
      : [];
    if (!list) errors.listId = [IMPORT_MESSAGES.unknownList];
    if (body.newListName !== undefined) errors.newListName = [IMPORT_MESSAGES.listAndNewList];
  } else if (body.newListName !== undefined) {
    const [taken] = await db
      .select({ id: lists.id })
      .from(lists)
      .where(and(eq(lists.tenantId, tenantId), sql`lower(${lists.name}) = lower(${body.newListName})`));
    if (taken) errors.newListName = [DUPLICATE_LIST_NAME];
  }
  return errors;
}

/**
 * POST /v1/imports/{id}/start: checks the mapping and the target list, creates the new list if one is
 * named, and queues the job (all in one transaction: a refused start leaves no list behind).
 */
export async function startImportJob(
  db: Database,
  tenantId: string,
  id: string,
  body: StartImportBody,
): Promise<ImportJobRow> {
  const job = await getImportJob(db, tenantId, id);
  if (job.status !== 'uploaded') throw conflict(IMPORT_MESSAGES.alreadyStarted);
  const errors = await startErrors(db, tenantId, body);
  if (Object.keys(errors).length > 0) throw badRequest(INVALID_INPUT, errors);
  try {
    return await db.transaction(async (tx) => {
      let listId = body.listId?.toLowerCase() ?? null;
      if (body.newListName !== undefined) {
        const [list] = await tx.insert(lists).values({ tenantId, name: body.newListName }).returning({ id: lists.id });
        listId = list?.id ?? null;
      }
      const [row] = await tx
        .update(importJobs)
        .set({ status: 'queued', mapping: body.mapping, hasHeader: body.has_header, mode: body.mode, listId })
        .where(and(tenantJob(tenantId, job.id), eq(importJobs.status, 'uploaded')))
        .returning();
      if (!row) throw conflict(IMPORT_MESSAGES.alreadyStarted);
      return row;
    });
  } catch (error) {
    if (uniqueViolation(error) === 'lists_tenant_name_idx') {
      throw badRequest(INVALID_INPUT, { newListName: [DUPLICATE_LIST_NAME] });
    }
    throw error;
  }
}

/** POST /v1/imports/{id}/cancel: a queued or running job stops; rows already committed stay. */
export async function cancelImportJob(db: Database, tenantId: string, id: string): Promise<ImportJobRow> {
  const job = await getImportJob(db, tenantId, id);
  const [row] = await db
    .update(importJobs)
    .set({ status: 'cancelled', finishedAt: sql`now()`, heartbeatAt: null })
    .where(and(tenantJob(tenantId, job.id), inArray(importJobs.status, ['queued', 'running'])))
    .returning();
  if (!row) throw conflict(IMPORT_MESSAGES.notRunning);
  return row;
}

/** The failed rows of a job as CSV lines (a BOM and the header first), read page by page. */
export async function* failureReport(db: Database, jobId: string): AsyncGenerator<string> {
  yield* headedChunks(CSV_BOM + csvLine(FAILURE_REPORT_HEADER), failureLines(db, jobId));
}

async function* failureLines(db: Database, jobId: string): AsyncGenerator<string> {
  let after = { row: 0, id: 0 };
  for (;;) {
    await yieldToRequests();
    const rows = await db
      .select({
        id: importFailures.id,
        row: importFailures.rowNumber,
        reason: importFailures.reason,
        raw: importFailures.raw,
      })
      .from(importFailures)
      .where(
        and(
          eq(importFailures.jobId, jobId),
          sql`(${importFailures.rowNumber}, ${importFailures.id}) > (${after.row}, ${after.id})`,
        ),
      )
      .orderBy(importFailures.rowNumber, importFailures.id)
      .limit(REPORT_PAGE);
    if (rows.length === 0) return;
    yield rows.map((r) => csvLine([r.row, r.reason, r.raw])).join('');
    const last = rows[rows.length - 1];
    if (!last || rows.length < REPORT_PAGE) return;
    after = { row: last.row, id: last.id };
  }
}
