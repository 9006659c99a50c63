/**
 * The campaigns' background work on the job runner (jobs/index.ts): the send queue
 * (CAMPAIGN_SEND_QUEUE, sender/send-job.ts). The same in the gateway and in separate worker processes.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/index';
import type { JobRunner } from '../jobs/index';
import { isPglite } from '../db/engine';
import { queryRows, textOf } from '../lib/raw-sql';
import type { Mailer } from '../mail/mailer';
import { CAMPAIGN_SEND_QUEUE, enqueueCampaign, type CampaignSendJob } from './sender/queue';
import { SendRates } from './sender/rate';
import { endsDirOf } from './sender/ends-log';
import { recoverEnded, releaseClaims, runCampaign, type SenderDeps } from './sender/send-job';
import type { CampaignTransport } from './sender/transport';

export interface CampaignJobsOptions {
  /** Replaces the SMTP/outbox transport (tests). */
  transport?: () => CampaignTransport;
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
    endsDir: isPglite(db) ? endsDirOf(config.pgliteDir) : null,
    ...(options.transport ? { transport: options.transport } : {}),
  };
  jobs.work<CampaignSendJob>(
    CAMPAIGN_SEND_QUEUE,
    async (job) => {
      try {
        await runCampaign(deps, job.data.campaignId, job.signal);
      } catch (error) {
        // Stopping: the runner is closing; the campaign is picked up again at the next start.
        if (job.signal.aborted) return;
        throw error;
      }
    },
    // A run lasts at most RUN_MS then sends the next one; several campaigns send at once.
    { retryLimit: 10, retryDelay: 2, retryBackoff: true, retryDelayMax: 60, concurrency: 4, batchSize: 1 },
  );
  // At start, the campaigns that were sending carry on (their jobs may have used up their retries while
  // no worker ran; a second job of a campaign only finds nothing to claim). PGlite belongs to this
  // process: of the rows the previous one left 'sending', those whose messages it ended (its runs'
  // ends logs, sender/ends-log.ts) become 'sent', and the others are queued again at once.
  jobs.onStart(async () => {
    if (!jobs.workers) return;
    if (deps.endsDir !== null) {
      const recovered = await recoverEnded(db, deps.endsDir);
      if (recovered > 0)
        log.warn({ recovered }, 'sent: rows whose messages were ended before a kill, not yet committed');
    }
    if (isPglite(db)) await releaseClaims(db, null, null);
    const rows = await queryRows(db, sql`select id::text from campaigns where status = 'sending' limit 1000`);
    for (const row of rows) {
      const id = textOf(row, 'id');
      if (id) await enqueueCampaign(jobs, id);
    }
  });
}
