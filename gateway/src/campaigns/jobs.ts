/**
 * The campaigns' background work on the job runner (jobs/index.ts): the send queue
 * (CAMPAIGN_SEND_QUEUE, sender/run.ts) and the takeover sweep (sender/lease.ts). The same in the
 * gateway and in separate worker processes (docs/sending.md).
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/index';
import type { JobRunner } from '../jobs/index';
import { queryRows, textOf } from '../lib/raw-sql';
import type { Mailer } from '../mail/mailer';
import { CAMPAIGN_SEND_QUEUE, CARRIER_SEND_QUEUE, enqueueCampaign, type CampaignSendJob } from './sender/queue';
import { SendRates } from './sender/rate';
import { renewMs, takeOverExpired } from './sender/lease';
import { runCampaign, type SenderDeps } from './sender/run';
import type { CampaignTransport } from './sender/transport';

export interface CampaignJobsOptions {
  /** Replaces the SMTP/outbox transport (tests). */
  transport?: () => CampaignTransport;
}

/**
 * Takes over expired leases every quarter of a lease while the runner works: their campaigns are
 * queued again, and the messages they left without an answer are logged.
 */
function sweepLeases(jobs: JobRunner, db: Database, config: Config, log: FastifyBaseLogger): void {
  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    takeOverExpired(db)
      .then(async (taken) => {
        for (const { campaignId, unconfirmed } of taken) {
          log.warn({ campaignId, unconfirmed }, 'send lease taken over: its process stopped renewing it');
          await enqueueCampaign(jobs, campaignId);
        }
      })
      .catch((error: unknown) => {
        if (!jobs.stopSignal.aborted) log.error({ err: error }, 'send lease sweep failed');
      })
      .finally(() => (sweeping = false));
  }, renewMs(config.campaigns));
  timer.unref();
  jobs.stopSignal.addEventListener('abort', () => clearInterval(timer), { once: true });
}

export function registerCampaignJobs(
  jobs: JobRunner,
  db: Database,
  config: Config,
  log: FastifyBaseLogger,
  mailer: Mailer,
  options: CampaignJobsOptions = {},
): void {
  const deps: SenderDeps = {
    db,
    config,
    log,
    jobs,
    mailer,
    rates: new SendRates(config.campaigns.globalRate, config.campaigns.tenantRate),
    worker: `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`,
    ...(options.transport ? { transport: options.transport } : {}),
  };
  const run = async (job: { data: CampaignSendJob; signal: AbortSignal }) => {
    try {
      await runCampaign(deps, job.data.campaignId, job.signal);
    } catch (error) {
      // Stopping: the runner is closing; the campaign is picked up again at the next start.
      if (job.signal.aborted) return;
      throw error;
    }
  };
  // A run lasts at most RUN_MS then sends the next one; several campaigns send at once.
  const queueOptions = {
    retryLimit: 10,
    retryDelay: 2,
    retryBackoff: true,
    retryDelayMax: 60,
    concurrency: 4,
    batchSize: 1,
  };
  jobs.work<CampaignSendJob>(CAMPAIGN_SEND_QUEUE, run, queueOptions);
  jobs.work<CampaignSendJob>(CARRIER_SEND_QUEUE, run, { ...queueOptions, policy: 'stately' });
  // At start, the campaigns that were sending carry on (their jobs may have used up their retries while
  // no worker ran; a second job of a campaign only finds nothing to claim), and the sweep begins: the
  // rows a previous process held are taken over once its lease has expired.
  jobs.onStart(async () => {
    if (!jobs.workers) return;
    const rows = await queryRows(db, sql`select id::text from campaigns where status = 'sending' limit 1000`);
    for (const row of rows) {
      const id = textOf(row, 'id');
      if (id) await enqueueCampaign(jobs, id);
    }
    sweepLeases(jobs, db, config, log);
  });
}
