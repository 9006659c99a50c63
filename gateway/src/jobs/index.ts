/**
 * Every area's background work on the one job runner: built once, handed to the areas here (the same
 * code in the gateway, src/app.ts, and in the separate workers process, src/workers.ts).
 */
import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import { registerImportJobs } from '../audience';
import { registerBillingJobs, type BillingProvider } from '../billing';
import { registerCampaignJobs, type CampaignJobsOptions } from '../campaigns/jobs';
import { registerDomainJobs } from '../domains';
import { registerTenantDeleteJob } from '../tenants';
import type { Config } from '../config';
import type { Database } from '../db/index';
import { registerStorageUpkeep } from '../db/storage';
import { createMailer, type Mailer } from '../mail/mailer';
import { JobRunner } from './runner';
import { adminJobRoutes } from './routes';

export { JobRunner } from './runner';
export type { JobContext, JobHandler, QueueCounts, QueueOptions, SendOptions } from './runner';

export interface JobsSetup {
  db: Database;
  config: Config;
  log: FastifyBaseLogger;
  /** The payment provider (built once by the caller: src/app.ts or src/workers.ts). */
  billing: BillingProvider;
  /** The gateway's own mail (usage notices of campaigns); default: built from the config. */
  mailer?: Mailer;
  /** Campaign sending options (tests replace the transport). */
  campaigns?: CampaignJobsOptions;
  /** Run the handlers in this process (default: config.jobs.workers). */
  workers?: boolean;
  /** Adds queues of its own (tests) before the runner starts. */
  extra?: (jobs: JobRunner) => void;
}

/** The runner with every area's queues declared; not started yet. */
export function createJobs({
  db,
  config,
  log,
  billing,
  workers = config.jobs.workers,
  extra,
  mailer,
  campaigns,
}: JobsSetup): JobRunner {
  const jobs = new JobRunner({ db, config, workers, log });
  registerImportJobs(jobs, db, config, log);
  registerBillingJobs(jobs, billing, log);
  const mail = mailer ?? createMailer(config);
  registerCampaignJobs(jobs, db, config, log, mail, campaigns);
  registerDomainJobs(jobs, db, config, log, mail);
  registerTenantDeleteJob(db, jobs);
  registerStorageUpkeep(jobs, db);
  extra?.(jobs);
  return jobs;
}

/** The job queues' state for platform admins (`/v1/admin/jobs`). */
export const jobsArea: FastifyPluginAsync = async (app) => {
  await app.register(adminJobRoutes, { prefix: '/v1/admin/jobs' });
};

// What other areas use from this one.
export { QueueCountsSchema } from './routes';
