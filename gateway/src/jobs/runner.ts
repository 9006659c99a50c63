/**
 * The one home of background work: a durable job queue in the gateway's own database (pg-boss), on
 * embedded PGlite (the default, in the gateway process) and on a PostgreSQL server (DATABASE_URL).
 *
 * - Areas declare their queues with `work(queue, handler, options)` while the app is built; the runner
 *   creates the queues at `start()` and, where workers run, polls them (LISTEN/NOTIFY wakes a worker
 *   the moment a job is sent; polling stays as the backstop).
 * - `send` (delayed with `startAfter`, de-duplicated with `singletonKey`), `schedule` (cron, stored in
 *   the database: one firing per occurrence however many processes run), retries with exponential
 *   backoff, and the state of every queue (`counts()`, GET /v1/admin/jobs and /health).
 * - Where workers run: in the gateway by default; with WORKERS=off the gateway only sends, and
 *   `pnpm --filter ./gateway run workers` (src/workers.ts) works the queues in its own process on the
 *   same DATABASE_URL. PGlite belongs to one process, so there the gateway always runs them.
 * - A job whose process died is run again: on PostgreSQL when its heartbeat is older than the queue's
 *   `heartbeatSeconds` (another process, or this one after a restart, takes it); on PGlite at start, since
 *   no other process can be running a job of this database. Handlers must therefore be idempotent (key
 *   their effects by the job id or by their own progress rows): a job runs at least once.
 */
import { PgBoss, type Job, type QueuePolicy, type SendOptions as BossSendOptions } from 'pg-boss';
import type { Config } from '../config';
import type { Database } from '../db/index';
import { asBackgroundWork, jobQueueConnection, storageCapabilities } from '../db/storage';

export type JobState = 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';

export interface JobContext<T> {
  id: string;
  queue: string;
  data: T;
  /** 0 on the first run, then one more on each retry. */
  retryCount: number;
  /** Aborted when the runner stops or the job is taken away (expired). */
  signal: AbortSignal;
}

export type JobHandler<T> = (job: JobContext<T>) => Promise<void>;

export interface QueueOptions {
  /** 'standard' by default; 'stately' keeps at most one waiting and one active job per singletonKey. */
  policy?: 'standard' | 'singleton' | 'stately' | 'exclusive';
  /** Attempts after the first one (default 2). */
  retryLimit?: number;
  /** Seconds before a retry; doubled per attempt with `retryBackoff`. */
  retryDelay?: number;
  retryBackoff?: boolean;
  retryDelayMax?: number;
  /** How long one run may take before it is failed (and retried). Default 15 minutes. */
  expireInSeconds?: number;
  /** A running job whose worker stopped beating for this long is run again (>= 10); default config.jobs.heartbeatSeconds. */
  heartbeatSeconds?: number;
  /** Jobs run at the same time in one process (default 1). */
  concurrency?: number;
  /** Jobs fetched at once by one worker (default 10; 1 for long jobs, so others are not held back). */
  batchSize?: number;
}

export interface SendOptions {
  /** A date, or seconds from now. */
  startAfter?: Date | number;
  /** With a 'stately' queue: no second waiting job with this key. */
  singletonKey?: string;
  retryLimit?: number;
  retryDelay?: number;
  retryBackoff?: boolean;
}

export interface QueueCounts {
  queue: string;
  /** Created or waiting for a retry (including delayed ones). */
  waiting: number;
  active: number;
  failed: number;
  completed: number;
}

export interface JobRunnerOptions {
  db: Database;
  config: Pick<Config, 'databaseUrl' | 'jobs'>;
  /** Run the declared queues' handlers in this process. */
  workers: boolean;
  log: { error(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };
}

interface Declared {
  options: QueueOptions;
  handler: JobHandler<unknown>;
}

/** pg-boss's schema in the database (its own tables, next to ours; created and migrated by pg-boss). */
export const JOBS_SCHEMA = 'pgboss';

export class JobRunner {
  private readonly boss: PgBoss;
  private readonly declared = new Map<string, Declared>();
  private readonly schedules = new Map<string, { cron: string; data: object }>();
  private readonly startHooks: (() => Promise<void>)[] = [];
  /** The database belongs to this process alone: it alone works the jobs (db/storage.ts). */
  private readonly exclusive: boolean;
  private started: Promise<void> | null = null;
  private hooksDone: Promise<void> | null = null;
  private stopped = false;
  /** Aborted when the runner stops: long handlers finish their step and return (their job is sent again). */
  private readonly stopping = new AbortController();

  constructor(private readonly options: JobRunnerOptions) {
    const { db, config, workers } = options;
    const own = jobQueueConnection(db);
    this.exclusive = storageCapabilities(db).ownedByProcess;
    const tuning = {
      schema: JOBS_SCHEMA,
      useListenNotify: true,
      // Maintenance (expiry, heartbeats, retention) and cron run where the workers run.
      supervise: workers,
      schedule: workers,
      superviseIntervalSeconds: config.jobs.superviseSeconds,
      monitorIntervalSeconds: config.jobs.superviseSeconds,
      cronMonitorIntervalSeconds: Math.min(45, config.jobs.superviseSeconds),
      cronWorkerIntervalSeconds: Math.min(45, Math.max(1, Math.round(config.jobs.superviseSeconds / 2))),
      openTelemetry: { enabled: false },
    };
    if (own) {
      this.boss = new PgBoss({ ...tuning, ...own });
    } else if (config.databaseUrl) {
      this.boss = new PgBoss({
        ...tuning,
        connectionString: config.databaseUrl,
        max: 4,
        application_name: 'gateway-jobs',
      });
    } else {
      throw new Error('the job runner needs an embedded database or DATABASE_URL');
    }
    // After stop() the database may close under a poll still in flight: that is the end, not an error.
    this.boss.on('error', (error) => {
      if (!this.stopped) options.log.error({ err: error }, 'job runner error');
    });
  }

  get workers(): boolean {
    return this.options.workers;
  }

  /** Aborted when the runner stops: work of the process's own (timers) ends with it. */
  get stopSignal(): AbortSignal {
    return this.stopping.signal;
  }

  /** Declares a queue and its handler (before `start`). The handler runs only where workers run. */
  work<T>(queue: string, handler: JobHandler<T>, options: QueueOptions = {}): void {
    if (this.started) throw new Error(`queue ${queue} declared after the job runner started`);
    this.declared.set(queue, { options, handler: handler as JobHandler<unknown> });
  }

  /** A recurring job on a cron expression (UTC), e.g. '* * * * *' each minute; one firing per occurrence. */
  schedule(queue: string, cron: string, data: object = {}): void {
    if (this.started) throw new Error(`schedule ${queue} declared after the job runner started`);
    this.schedules.set(queue, { cron, data });
  }

  /** Runs once the runner has started (e.g. re-queue work left behind by a previous process). */
  onStart(hook: () => Promise<void>): void {
    this.startHooks.push(hook);
  }

  /** Starts pg-boss, creates the queues and schedules, starts the workers, then runs the start hooks. */
  start(): Promise<void> {
    this.started ??= this.doStart();
    // The hooks run after `started` has settled: they may send, and send waits for `started`.
    this.hooksDone ??= this.started.then(() => this.runStartHooks());
    return this.hooksDone;
  }

  private async doStart(): Promise<void> {
    await this.boss.start();
    for (const [queue, { options }] of this.declared) {
      const settings = {
        policy: (options.policy ?? 'standard') as QueuePolicy,
        notify: true,
        retryLimit: options.retryLimit ?? 2,
        retryDelay: options.retryDelay ?? 0,
        retryBackoff: options.retryBackoff ?? false,
        expireInSeconds: options.expireInSeconds ?? 15 * 60,
        heartbeatSeconds: options.heartbeatSeconds ?? this.options.config.jobs.heartbeatSeconds,
        ...(options.retryDelayMax === undefined ? {} : { retryDelayMax: options.retryDelayMax }),
      };
      if (await this.boss.getQueue(queue)) {
        const { policy: _fixed, ...changeable } = settings;
        await this.boss.updateQueue(queue, changeable);
      } else {
        await this.boss.createQueue(queue, settings);
      }
    }
    for (const [queue, { cron, data }] of this.schedules) await this.boss.schedule(queue, cron, data, { tz: 'UTC' });
    if (!this.options.workers) return;
    if (this.exclusive) await this.requeueOrphans();
    for (const [queue, { options, handler }] of this.declared) {
      // Jobs are fetched in batches and each is settled on its own (a failing job never fails its
      // neighbours); while batches come back full the worker fetches again at once instead of waiting
      // for the next poll (pg-boss waits a poll interval after each fetch otherwise).
      const batchSize = options.batchSize ?? 10;
      await this.boss.work<unknown>(
        queue,
        {
          pollingIntervalSeconds: this.options.config.jobs.pollSeconds,
          // NOTIFY wakes a worker when a job is sent, not when a delayed job or a retry falls due:
          // those are found by polling. pg-boss polls only every 30 s while NOTIFY is on unless told
          // otherwise, which held retries and `startAfter` jobs up to 30 s past their time.
          notifyPollingIntervalSeconds: this.options.config.jobs.pollSeconds,
          localConcurrency: options.concurrency ?? 1,
          batchSize,
          burstWhenBatchFull: batchSize > 1,
          perJobResults: true,
        },
        async (jobs: Job<unknown>[]) => {
          const results: { id: string; status: 'completed' | 'failed'; output?: object }[] = [];
          for (const job of jobs) {
            try {
              const run = () =>
                handler({
                  id: job.id,
                  queue,
                  data: job.data,
                  retryCount: job.retryCount,
                  signal: AbortSignal.any([job.signal, this.stopping.signal]),
                });
              // A job's statements give way to the console's requests (db/storage.ts).
              await asBackgroundWork(this.options.db, run);
              results.push({ id: job.id, status: 'completed' });
            } catch (error) {
              results.push({
                id: job.id,
                status: 'failed',
                output: { message: error instanceof Error ? error.message : String(error) },
              });
            }
          }
          return results;
        },
      );
    }
  }

  private async runStartHooks(): Promise<void> {
    for (const hook of this.startHooks) {
      try {
        await hook();
      } catch (error) {
        this.options.log.error({ err: error }, 'job runner start hook failed');
      }
    }
  }

  /** PGlite: jobs still 'active' were cut off by the end of the previous process; they go back to the queue now. */
  private async requeueOrphans(): Promise<void> {
    for (const queue of this.declared.keys()) {
      const orphans = (await this.boss.findJobs(queue, { limit: 100_000 })).filter((j) => j.state === 'active');
      if (orphans.length > 0) {
        await this.boss.fail(
          queue,
          orphans.map((j) => j.id),
          { reason: 'the process running it ended' },
        );
      }
    }
  }

  /** Finishes the jobs in hand (up to `timeoutMs`), then stops polling. */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (!this.started || this.stopped) return;
    this.stopped = true;
    await this.started.catch(() => undefined);
    this.stopping.abort();
    await this.boss.stop({ graceful: true, close: true, timeout: timeoutMs });
  }

  async send<T extends object>(queue: string, data: T, options: SendOptions = {}): Promise<string | null> {
    if (!this.started) throw new Error('the job runner has not started');
    await this.started;
    const sendOptions: BossSendOptions = {};
    if (options.startAfter !== undefined) sendOptions.startAfter = options.startAfter;
    if (options.singletonKey !== undefined) sendOptions.singletonKey = options.singletonKey;
    if (options.retryLimit !== undefined) sendOptions.retryLimit = options.retryLimit;
    if (options.retryDelay !== undefined) sendOptions.retryDelay = options.retryDelay;
    if (options.retryBackoff !== undefined) sendOptions.retryBackoff = options.retryBackoff;
    return this.boss.send(queue, data, sendOptions);
  }

  /** Many jobs of one queue in one statement (pg-boss `insert`), each with its own data and start. */
  async sendMany<T extends object>(queue: string, items: readonly { data: T; startAfter?: Date }[]): Promise<void> {
    if (!this.started) throw new Error('the job runner has not started');
    await this.started;
    if (items.length === 0) return;
    await this.boss.insert(
      queue,
      items.map((item) => (item.startAfter ? { data: item.data, startAfter: item.startAfter } : { data: item.data })),
    );
  }

  /** A job's state and attempts (tests, diagnostics). */
  async job(queue: string, id: string): Promise<{ state: JobState; retryCount: number } | null> {
    const [job] = await this.boss.findJobs(queue, { id });
    return job ? { state: job.state as JobState, retryCount: job.retryCount } : null;
  }

  /** Live counts per declared queue, read from the job table (pg-boss's cached stats lag by a monitor pass). */
  async counts(): Promise<QueueCounts[]> {
    await this.started;
    const names = [...this.declared.keys()].sort();
    const { rows } = await this.boss
      .getDb()
      .executeSql(
        `select name, state::text as state, count(*)::int as n from ${JOBS_SCHEMA}.job where name = any($1::text[]) group by 1, 2`,
        [names],
      );
    const byQueue = new Map(names.map((queue) => [queue, { queue, waiting: 0, active: 0, failed: 0, completed: 0 }]));
    for (const row of rows as { name: string; state: JobState; n: number }[]) {
      const counts = byQueue.get(row.name);
      if (!counts) continue;
      if (row.state === 'created' || row.state === 'retry') counts.waiting += row.n;
      else if (row.state === 'active') counts.active += row.n;
      else if (row.state === 'failed') counts.failed += row.n;
      else if (row.state === 'completed') counts.completed += row.n;
    }
    return [...byQueue.values()];
  }
}
