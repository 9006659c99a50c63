/**
 * The composition root's one list of product areas, and the services built once for them: src/app.ts
 * (the gateway) and src/workers.ts (the workers process) both build their services here, so the same
 * queues and handlers are declared in both. A new area is one line in AREAS.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Area } from './area';
import type { Config } from './config';
import type { Database } from './db/index';
import { storageUpkeep } from './db/storage';
import type { Deps } from './deps';
import { JobRunner } from './jobs/index';
import { BackgroundTasks } from './lib/background';
import { createMailer, type Mailer } from './mail/mailer';
import { accountArea } from './account/index';
import { appletsArea } from './applets/index';
import { apiKeysArea } from './api-keys/index';
import { appsArea } from './apps/index';
import { audienceArea } from './audience/index';
import { authArea, LoginThrottle } from './auth/index';
import { billingArea, createBillingProvider } from './billing/index';
import { campaignsArea } from './campaigns/index';
import { domainsArea, dkimSignMessageWith } from './domains/index';
import { healthArea } from './health/index';
import { createStorage, onboardingArea } from './onboarding/index';
import { overviewArea } from './overview/index';
import { teamArea } from './team/index';
import { templatesArea } from './templates/index';
import { tenantsArea } from './tenants/index';
import { webhooksArea } from './webhooks/index';
import { transactionalArea } from './transactional/index';
import { onchainArea } from './onchain/index';
import { automationsArea } from './automations/index';
import { configureOffLoop } from './lib/off-loop/pool';

/** The product areas, in the order their decorations, routes and job queues are registered. */
export const AREAS: readonly Area[] = [
  healthArea,
  authArea,
  tenantsArea,
  teamArea,
  accountArea,
  audienceArea,
  onboardingArea,
  billingArea,
  templatesArea,
  campaignsArea,
  overviewArea,
  domainsArea,
  appletsArea,
  appsArea,
  webhooksArea,
  apiKeysArea,
  transactionalArea,
  onchainArea,
  automationsArea,
];

export interface DepsOptions {
  db: Database;
  config: Config;
  log: FastifyBaseLogger;
  /** Run the job handlers in this process. */
  workers: boolean;
  /** Defaults to SMTP or the local outbox, per config. */
  mailer?: Mailer;
  clock?: () => Date;
  /** Work started after a reply; default: one whose failures are logged. */
  background?: BackgroundTasks;
  /** Declares more queues on the job runner before it starts (tests). */
  extraJobs?: (jobs: JobRunner) => void;
}

/** The services, each built once, with every area's queues declared on the job runner (not started yet). */
export function createDeps({
  db,
  config,
  log,
  workers,
  mailer,
  clock = () => new Date(),
  background,
  extraJobs,
}: DepsOptions): Deps {
  // Renders and signatures run in the process's one off-loop pool, sized by these settings.
  configureOffLoop(config.offLoop);
  const jobs = new JobRunner({ db, config, workers, log });
  const deps: Deps = {
    db,
    config,
    log,
    mailer: mailer ?? createMailer(config, dkimSignMessageWith),
    background: background ?? new BackgroundTasks((error) => log.error({ err: error }, 'background task failed')),
    jobs,
    clock,
    throttle: new LoginThrottle(db, config.throttle),
    billing: createBillingProvider(db, config, log, clock),
    storage: createStorage(db, config),
  };
  for (const area of AREAS) area.jobs?.(jobs, deps);
  // The storage engine's own upkeep; a missed run is not retried (the next one does the same).
  const upkeep = storageUpkeep(db);
  if (upkeep) {
    jobs.work(upkeep.queue, upkeep.run, { retryLimit: 0 });
    jobs.schedule(upkeep.queue, upkeep.cron);
  }
  extraJobs?.(jobs);
  return deps;
}
