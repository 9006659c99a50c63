/**
 * Runs CSV import jobs in the gateway process, one at a time per process.
 *
 * - Claims a queued job, or a running one whose heartbeat is stale (its runner died), atomically
 *   (`UPDATE ... WHERE id = (SELECT ... FOR UPDATE SKIP LOCKED)`), so several gateways on one
 *   PostgreSQL never run the same job. On PGlite the process owns the database, so a running job it
 *   is not running itself was cut off by a restart and is resumed at once.
 * - Heartbeats while working; reads the file in batches (import-source.ts) and commits each batch
 *   with its checkpoint in one transaction (import-batch.ts). The next batch is parsed while the
 *   previous one is in the database (on PostgreSQL that is another process: two cores at work).
 * - Batches start at the configured size and grow (up to BATCH_GROWTH times it) while they commit
 *   quickly, so a large file pays the per-batch costs (round trips, commit, checkpoint) less often,
 *   and shrink back when one takes long, so cancelling and stopping stay prompt.
 * - After a restart the job resumes from its last checkpoint: the rows before it are re-read (not
 *   imported) to know which e-mails and wallets they claimed.
 * - A job that cannot go on ends 'failed' with a sentence for the user; errors never leave the runner.
 * - Stopping (gateway shutdown) finishes the batch in flight and puts the job back in the queue.
 * - Housekeeping: files uploaded but never started are deleted after `uploadTtlMs` (job rows too),
 *   and a finished job's file is deleted (its report lives in the database).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/index';
import { customAttributes, importJobs, type ImportJobRow } from '../db/schema';
import { foreignKeyViolation, isPglite, pgError } from './db-helpers';
import { commitBatch, type BatchJob, type Checkpoint } from './import-batch';
import { planColumns } from './import-mapping';
import { ImportSource, type ImportBatch } from './import-source';

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
const CLEANUP_EVERY_MS = 10 * 60 * 1000;
/** Batches grow up to this many times the configured size... */
export const BATCH_GROWTH = 8;
/** ...while a batch commits in less than this; one that takes longer than twice this halves the size. */
const BATCH_TARGET_MS = 1000;

/** The size of the batch after one of `rows` rows that committed in `ms`. */
export function nextBatchRows(rows: number, ms: number, configured: number): number {
  if (ms < BATCH_TARGET_MS) return Math.min(rows * 2, configured * BATCH_GROWTH);
  if (ms > BATCH_TARGET_MS * 2) return Math.max(Math.floor(rows / 2), configured);
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

export class ImportRunner {
  private stopping = false;
  private loopDone: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private lastCleanup = 0;
  /** PGlite: no other process can be running a job of this database. */
  private readonly exclusive: boolean;

  constructor(
    private readonly db: Database,
    private readonly config: Config,
    private readonly log: FastifyBaseLogger,
  ) {
    this.exclusive = isPglite(db);
  }

  start(): void {
    this.loopDone ??= this.loop();
  }

  /** Look for work now (a job was just queued). */
  wake(): void {
    this.wakeUp?.();
  }

  /** Finishes the batch in flight, puts its job back in the queue and stops. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loopDone;
  }

  private file(job: Pick<ImportJobRow, 'filePath'>): string {
    return path.join(this.config.dataDir, job.filePath);
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      let job: ImportJobRow | null = null;
      try {
        await this.cleanup();
        job = await this.claim();
      } catch (error) {
        this.log.error({ err: error }, 'import runner: could not look for jobs');
      }
      if (job) await this.run(job);
      else if (!this.stopping) await this.sleep(this.config.imports.pollMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }

  private async claim(): Promise<ImportJobRow | null> {
    const staleMs = this.exclusive ? 0 : this.config.imports.staleMs;
    const [row] = await this.db
      .update(importJobs)
      .set({ status: 'running', heartbeatAt: sql`now()`, startedAt: sql`coalesce(${importJobs.startedAt}, now())` })
      .where(
        sql`${importJobs.id} = (
          select id from import_jobs
          where status = 'queued'
            or (status = 'running' and (heartbeat_at is null or heartbeat_at <= now() - ${staleMs} * interval '1 millisecond'))
          order by created_at, id
          limit 1
          for update skip locked)`,
      )
      .returning();
    return row ?? null;
  }

  private async run(job: ImportJobRow): Promise<void> {
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
      Math.max(100, Math.floor(this.config.imports.staleMs / 5)),
    );
    let source: ImportSource | null = null;
    try {
      const opened = await this.open(job);
      if (typeof opened === 'string') return await this.fail(job, opened);
      source = opened;
      await this.importRows(job, source, () => lost);
    } catch (error) {
      log.error({ err: error }, 'import job failed');
      await this.fail(job, JOB_ERRORS.unexpected).catch((e: unknown) => log.error({ err: e }, 'could not fail job'));
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

  private async importRows(job: ImportJobRow, source: ImportSource, lost: () => boolean): Promise<void> {
    const target: BatchJob = { id: job.id, tenantId: job.tenantId, mode: job.mode, listId: job.listId };
    let at: Checkpoint = { rowsDone: job.rowsDone, byteOffset: job.byteOffset };
    let inflight: Promise<Settled> | null = null;
    let batchRows = this.config.imports.batchRows;
    const settle = async (): Promise<boolean> => {
      if (!inflight) return true;
      const result = await inflight;
      inflight = null;
      if (!result.ok) throw result.error;
      return result.committed;
    };
    for (;;) {
      // PGlite runs in this thread and answers through promises only: without a turn of the event
      // loop between batches, requests (and this job's cancel) would wait until the import ends.
      await turn();
      if (this.stopping || lost()) break;
      const batch = await source.next(batchRows);
      if (!(await settle())) return;
      if (!batch) {
        await this.complete(job, at);
        return;
      }
      const from = at;
      at = { rowsDone: batch.rowsDone, byteOffset: batch.byteOffset };
      // Settled at once, awaited after the next batch is parsed (a rejection is never left unhandled).
      const started = performance.now();
      const rows = batchRows;
      inflight = this.commit(target, from, batch, source).then(
        (committed): Settled => {
          batchRows = nextBatchRows(rows, performance.now() - started, this.config.imports.batchRows);
          return { ok: true, committed };
        },
        (error: unknown): Settled => ({ ok: false, error }),
      );
    }
    if (!(await settle()) || lost()) return;
    // Stopping: back to the queue, resumed from `at` by the next runner.
    await this.db
      .update(importJobs)
      .set({ status: 'queued', heartbeatAt: null })
      .where(and(eq(importJobs.id, job.id), eq(importJobs.status, 'running'), eq(importJobs.rowsDone, at.rowsDone)));
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

  /** Uploads never started, and upload leftovers (`.part` files of cut-off uploads), older than the TTL. */
  private async cleanup(): Promise<void> {
    if (Date.now() - this.lastCleanup < CLEANUP_EVERY_MS) return;
    this.lastCleanup = Date.now();
    const before = new Date(Date.now() - this.config.imports.uploadTtlMs);
    const expired = await this.db
      .delete(importJobs)
      .where(and(eq(importJobs.status, 'uploaded'), lt(importJobs.createdAt, before)))
      .returning({ filePath: importJobs.filePath });
    for (const job of expired) await removeFile(this.file(job));
    const dir = path.join(this.config.dataDir, IMPORTS_DIR);
    const names = await fs.readdir(dir).catch(() => []);
    for (const name of names.filter((n) => n.endsWith('.part'))) {
      const file = path.join(dir, name);
      const stat = await fs.stat(file).catch(() => null);
      if (stat && stat.mtime < before) await removeFile(file);
    }
  }
}
