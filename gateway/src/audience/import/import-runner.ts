/**
 * Runs CSV imports as jobs of the job runner (jobs/runner.ts): one job per import, queue `imports.run`.
 *
 * - A job claims its import row (queued, or running: a run cut off by a dead process) and works on it
 *   for a slice (config.imports.sliceMs), then puts the row back in the queue and sends the next job
 *   (same singletonKey, the import's id): a long file never outlives a job's expiry, and imports of
 *   several tenants take turns. Progress lives in the import row (checkpoint), not in the job, so a
 *   job that runs again after a crash (PostgreSQL: its heartbeat stopped; PGlite: at the next start)
 *   resumes from the last checkpoint.
 * - Reads the file in batches (import-source.ts) and commits each batch with its checkpoint in one
 *   transaction (import-batch.ts); a batch whose checkpoint moved meanwhile is refused, so two runs of
 *   one import (a job taken over while its old worker still lived) never import a row twice. The next
 *   batch is parsed while the previous one is in the database (on PostgreSQL that is another process).
 * - Batches start at the configured size and grow (up to BATCH_GROWTH times it) while they commit
 *   quickly, so a large file pays the per-batch costs (round trips, commit, checkpoint) less often,
 *   and shrink back when one takes long, so cancelling and stopping stay prompt, within the pace of
 *   the database's commits (db/storage.ts commitPace: where one commit holds up every other request,
 *   they start smaller and aim at a tenth of a second).
 * - After a restart the rows before the checkpoint are re-read (not imported) to know which e-mails
 *   and wallets they claimed.
 * - A job that cannot go on ends 'failed' with a sentence for the user; errors never leave the runner.
 * - Stopping (shutdown) finishes the batch in flight and puts the import back in the queue (the next
 *   job is sent; if that fails, the start-up sweep sends it).
 * - Housekeeping (a recurring job, every 10 minutes): files uploaded but never started are deleted after
 *   `uploadTtlMs` (job rows too), orphans of uploads that died are swept (cleanupImports), and a
 *   finished job's file is deleted (its report lives in the database).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Database } from '../../db/index';
import { customAttributes, importJobs, type ImportJobRow } from '../../db/schema';
import type { JobRunner } from '../../jobs';
import { foreignKeyViolation, pgError } from '../../lib/db-helpers';
import { storageCapabilities, yieldToRequests, type CommitPace } from '../../db/storage';
import { commitBatch, type BatchJob, type Checkpoint } from './import-batch';
import { planColumns } from './import-mapping';
import { ImportSource, type ImportBatch } from './import-source';
import { existingImportIds, releaseUpload, uploadReservations } from './upload-quota';
import { ContactLimitReached } from '../contacts/contact-limit';

export const IMPORTS_DIR = 'imports';

export const JOB_ERRORS = {
  fileGone: 'The uploaded file is no longer available. Upload it again.',
  fileChanged: 'The uploaded file changed while it was imported. Upload it again.',
  attributeGone: (key: string) =>
    `The custom attribute "${key}" was deleted after the import was started. Start a new import.`,
  unexpected: 'The import stopped because of an unexpected error. The rows imported so far are kept.',
} as const;

/** Errors worth another try of the same batch: a contact created meanwhile, a deadlock, the list deleted meanwhile. */
const RETRY_CODES = new Set(['23505', '40001', '40P01', '23503']);
const ATTEMPTS = 5;
/** How often a running import checks that it was not cancelled meanwhile. */
const BEAT_MS = 5000;
export const IMPORT_QUEUE = 'imports.run';
export const IMPORT_HOUSEKEEPING_QUEUE = 'imports.housekeeping';
/** Batches grow up to this many times the configured size (within the pace's most rows). */
export const BATCH_GROWTH = 8;

/** The size of the first batch of a slice. */
export function firstBatchRows(configured: number, pace: CommitPace): number {
  return Math.min(configured, pace.startRows);
}

/**
 * The size of the batch after one of `rows` rows that committed in `ms`: double while commits are
 * quicker than the pace's target, halve when one takes twice as long, within the pace's bounds.
 */
export function nextBatchRows(rows: number, ms: number, configured: number, pace: CommitPace): number {
  const least = Math.min(configured, pace.leastRows);
  const most = Math.min(configured * BATCH_GROWTH, pace.mostRows);
  if (ms < pace.targetMs) return Math.min(rows * 2, most);
  if (ms > pace.targetMs * 2) return Math.max(Math.floor(rows / 2), least);
  return rows;
}

/** Where an import's file lives (relative to the data directory, as stored on the job). */
export function importFilePath(jobId: string): string {
  return path.join(IMPORTS_DIR, `${jobId}.csv`);
}

async function removeFile(file: string): Promise<void> {
  await fs.rm(file, { force: true });
}

type Settled = { ok: true; committed: boolean } | { ok: false; error: unknown };

export interface ImportJobData {
  importId: string;
}

/** Sends the job that runs (or goes on with) an import; none when one is already waiting for it. */
export async function enqueueImport(jobs: JobRunner, importId: string): Promise<void> {
  await jobs.send<ImportJobData>(IMPORT_QUEUE, { importId }, { singletonKey: importId });
}

/** Imports queued or running without a job (a process ended between the row and the job): send theirs. */
export async function enqueueWaitingImports(jobs: JobRunner, db: Database): Promise<number> {
  const rows = await db
    .select({ id: importJobs.id })
    .from(importJobs)
    .where(inArray(importJobs.status, ['queued', 'running']));
  for (const row of rows) await enqueueImport(jobs, row.id);
  return rows.length;
}

/** The import queues, their handlers and their schedule, on the job runner. */
export function registerImportJobs(jobs: JobRunner, db: Database, config: Config, log: FastifyBaseLogger): void {
  const runner = new ImportRunner(db, config, log);
  jobs.work<ImportJobData>(
    IMPORT_QUEUE,
    async (job) => {
      if (await runner.runSlice(job.data.importId, job.signal)) await enqueueImport(jobs, job.data.importId);
    },
    // One waiting and one running job per import; a crash is retried soon, a handful of times.
    {
      policy: 'stately',
      retryLimit: 10,
      retryDelay: 1,
      retryBackoff: true,
      retryDelayMax: 60,
      concurrency: 1,
      batchSize: 1,
    },
  );
  jobs.work(IMPORT_HOUSEKEEPING_QUEUE, async () => {
    await cleanupImports(db, config);
    await enqueueWaitingImports(jobs, db);
  });
  jobs.schedule(IMPORT_HOUSEKEEPING_QUEUE, '*/10 * * * *');
  jobs.onStart(async () => void (await enqueueWaitingImports(jobs, db)));
}

export class ImportRunner {
  constructor(
    private readonly db: Database,
    private readonly config: Config,
    private readonly log: FastifyBaseLogger,
  ) {}

  private file(job: Pick<ImportJobRow, 'filePath'>): string {
    return path.join(this.config.dataDir, job.filePath);
  }

  /**
   * Works on an import for one slice. True when it is not finished (its row is back in the queue and
   * the caller sends the next job); false when it ended (completed, failed, cancelled) or is not there.
   */
  async runSlice(importId: string, signal: AbortSignal): Promise<boolean> {
    const [job] = await this.db
      .update(importJobs)
      .set({ status: 'running', heartbeatAt: sql`now()`, startedAt: sql`coalesce(${importJobs.startedAt}, now())` })
      .where(and(eq(importJobs.id, importId), inArray(importJobs.status, ['queued', 'running'])))
      .returning();
    if (!job) return false;
    return this.run(job, signal, performance.now() + this.config.imports.sliceMs);
  }

  private async run(job: ImportJobRow, signal: AbortSignal, deadline: number): Promise<boolean> {
    const log = this.log.child({ importJob: job.id });
    let lost = false;
    const beat = async () => {
      const [row] = await this.db
        .update(importJobs)
        .set({ heartbeatAt: sql`now()` })
        .where(and(eq(importJobs.id, job.id), eq(importJobs.status, 'running')))
        .returning({ id: importJobs.id });
      if (!row) lost = true;
    };
    const heartbeat = setInterval(
      () => beat().catch((error: unknown) => log.warn({ err: error }, 'import heartbeat failed')),
      BEAT_MS,
    );
    let source: ImportSource | null = null;
    try {
      const opened = await this.open(job);
      if (typeof opened === 'string') {
        await this.fail(job, opened);
        return false;
      }
      source = opened;
      return await this.importRows(job, source, () => lost || signal.aborted || performance.now() > deadline);
    } catch (error) {
      if (error instanceof ContactLimitReached) {
        await this.fail(job, error.message);
        return false;
      }
      log.error({ err: error }, 'import job failed');
      await this.fail(job, JOB_ERRORS.unexpected).catch((e: unknown) => log.error({ err: e }, 'could not fail job'));
      return false;
    } finally {
      clearInterval(heartbeat);
      await source?.close().catch(() => undefined);
    }
  }

  /** The job's file, read up to its checkpoint; or why the job cannot go on. */
  private async open(job: ImportJobRow): Promise<ImportSource | string> {
    const attributes = await this.db
      .select({
        id: customAttributes.id,
        key: customAttributes.key,
        name: customAttributes.name,
        type: customAttributes.type,
      })
      .from(customAttributes)
      .where(eq(customAttributes.tenantId, job.tenantId));
    const planned = planColumns(job.mapping, attributes);
    if (!planned.ok) return JOB_ERRORS.attributeGone(planned.missingKey);
    let source: ImportSource;
    try {
      source = await ImportSource.open(this.file(job), {
        hasHeader: job.hasHeader,
        plan: planned.plan,
        mappedColumns: job.mapping.length,
      });
    } catch (error) {
      if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return JOB_ERRORS.fileGone;
      throw error;
    }
    if (job.byteOffset > 0) {
      const checkpoint = { rowsDone: job.rowsDone, byteOffset: job.byteOffset };
      if (!(await source.replayTo(checkpoint, this.config.imports.batchRows * BATCH_GROWTH))) {
        await source.close();
        return JOB_ERRORS.fileChanged;
      }
    }
    return source;
  }

  /** True when the slice ended before the file did (the row is back in the queue). */
  private async importRows(job: ImportJobRow, source: ImportSource, pause: () => boolean): Promise<boolean> {
    const target: BatchJob = { id: job.id, tenantId: job.tenantId, mode: job.mode, listId: job.listId };
    let at: Checkpoint = { rowsDone: job.rowsDone, byteOffset: job.byteOffset };
    let inflight: Promise<Settled> | null = null;
    const pace = storageCapabilities(this.db).commitPace;
    let batchRows = firstBatchRows(this.config.imports.batchRows, pace);
    const settle = async (): Promise<boolean> => {
      if (!inflight) return true;
      const result = await inflight;
      inflight = null;
      if (!result.ok) throw result.error;
      return result.committed;
    };
    for (;;) {
      // Requests (and this job's cancel) are answered between batches (db/storage.ts).
      await yieldToRequests();
      if (pause()) break;
      const batch = await source.next(batchRows);
      if (!(await settle())) return false;
      if (!batch) {
        await this.complete(job, at);
        return false;
      }
      const from = at;
      at = { rowsDone: batch.rowsDone, byteOffset: batch.byteOffset };
      // Settled at once, awaited after the next batch is parsed (a rejection is never left unhandled).
      const started = performance.now();
      const rows = batchRows;
      inflight = this.commit(target, from, batch, source).then(
        (committed): Settled => {
          batchRows = nextBatchRows(rows, performance.now() - started, this.config.imports.batchRows, pace);
          return { ok: true, committed };
        },
        (error: unknown): Settled => ({ ok: false, error }),
      );
    }
    if (!(await settle())) return false;
    // End of the slice, stopping, or cancelled: back to the queue (if still ours), resumed from `at` by the next job.
    const [requeued] = await this.db
      .update(importJobs)
      .set({ status: 'queued', heartbeatAt: null })
      .where(and(eq(importJobs.id, job.id), eq(importJobs.status, 'running'), eq(importJobs.rowsDone, at.rowsDone)))
      .returning({ id: importJobs.id });
    return requeued !== undefined;
  }

  /** Commits a batch, trying again after a conflict with concurrent writers. False: the job is no longer ours. */
  private async commit(job: BatchJob, from: Checkpoint, batch: ImportBatch, source: ImportSource): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      try {
        return (await commitBatch(this.db, job, from, batch, source)) !== null;
      } catch (error) {
        const code = pgError(error)?.code ?? '';
        if (attempt >= ATTEMPTS || !RETRY_CODES.has(code)) throw error;
        if (foreignKeyViolation(error)) {
          // The target list was deleted meanwhile (the job's list_id is now null).
          const [row] = await this.db
            .select({ listId: importJobs.listId })
            .from(importJobs)
            .where(eq(importJobs.id, job.id));
          job.listId = row?.listId ?? null;
        }
      }
    }
  }

  private async complete(job: ImportJobRow, at: Checkpoint): Promise<void> {
    const [row] = await this.db
      .update(importJobs)
      .set({ status: 'completed', finishedAt: sql`now()`, heartbeatAt: null, error: null })
      .where(and(eq(importJobs.id, job.id), eq(importJobs.status, 'running'), eq(importJobs.rowsDone, at.rowsDone)))
      .returning({ id: importJobs.id });
    if (row) await removeFile(this.file(job));
  }

  private async fail(job: ImportJobRow, message: string): Promise<void> {
    const [row] = await this.db
      .update(importJobs)
      .set({ status: 'failed', error: message, finishedAt: sql`now()`, heartbeatAt: null })
      .where(and(eq(importJobs.id, job.id), eq(importJobs.status, 'running')))
      .returning({ id: importJobs.id });
    if (row) await removeFile(this.file(job));
  }
}

/** A part file not written to for this long belongs to an upload that died (or stalled for good). */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;
const PART = /^([0-9a-f-]{36})\.csv\.part$/;
const WHOLE = /^([0-9a-f-]{36})\.csv$/;

/**
 * The housekeeping sweep: uploads never started, older than the TTL (row and file); part files of
 * uploads that died or stalled for ORPHAN_GRACE_MS; whole files no import job names (a process ended
 * between storing a file and creating its job), older than the grace; and reservations of uploads
 * that are gone, so they stop counting against the tenant's upload limit.
 */
export async function cleanupImports(db: Database, config: Config): Promise<void> {
  const now = Date.now();
  const before = new Date(now - config.imports.uploadTtlMs);
  const expired = await db
    .delete(importJobs)
    .where(and(eq(importJobs.status, 'uploaded'), lt(importJobs.createdAt, before)))
    .returning({ filePath: importJobs.filePath });
  for (const job of expired) await removeFile(path.join(config.dataDir, job.filePath));

  const graceStart = now - ORPHAN_GRACE_MS;
  const dir = path.join(config.dataDir, IMPORTS_DIR);
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const modified = async (name: string) => (await fs.stat(path.join(dir, name)).catch(() => null))?.mtimeMs ?? null;
  /** Ids of uploads whose part file was written to within the grace. */
  const writing = new Set<string>();
  for (const name of names) {
    const id = PART.exec(name)?.[1];
    if (!id && !name.endsWith('.part')) continue;
    const mtime = await modified(name);
    if (mtime !== null && mtime >= graceStart) {
      if (id) writing.add(id);
    } else await removeFile(path.join(dir, name));
  }
  const whole = names.flatMap((name) => WHOLE.exec(name)?.[1] ?? []);
  const named = await existingImportIds(db, whole);
  for (const id of whole.filter((i) => !named.has(i))) {
    const mtime = await modified(`${id}.csv`);
    if (mtime !== null && mtime < graceStart) await removeFile(path.join(dir, `${id}.csv`));
  }
  const gone = (await uploadReservations(db)).filter((r) => r.createdAt.getTime() < graceStart && !writing.has(r.id));
  for (const r of gone) await releaseUpload(db, r.id);
}
