/**
 * Every area's background work on the one job runner: built once, handed to the areas here (the same
 * code in the gateway, src/app.ts, and in the separate workers process, src/workers.ts).
 */
import type { FastifyBaseLogger } from 'fastify';
import { registerImportJobs } from '../audience/import-runner';
import { registerBillingJobs } from '../billing/due-changes-job';
import type { Config } from '../config';
import type { Database } from '../db/index';
import { JobRunner } from './runner';

export { JobRunner } from './runner';
export type { JobContext, JobHandler, QueueCounts, QueueOptions, SendOptions } from './runner';

export interface JobsSetup {
  db: Database;
  config: Config;
  log: FastifyBaseLogger;
  /** Run the handlers in this process (default: config.jobs.workers). */
  workers?: boolean;
  /** Adds queues of its own (tests) before the runner starts. */
  extra?: (jobs: JobRunner) => void;
}

/** The runner with every area's queues declared; not started yet. */
export function createJobs({ db, config, log, workers = config.jobs.workers, extra }: JobsSetup): JobRunner {
  const jobs = new JobRunner({ db, config, workers, log });
  registerImportJobs(jobs, db, config, log);
  registerBillingJobs(jobs, db, config, log);
  extra?.(jobs);
  return jobs;
}
