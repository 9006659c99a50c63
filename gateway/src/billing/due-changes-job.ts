/**
 * Scheduled downgrades and renewals (spec section 3) are applied by a recurring job each minute, not only
 * when a subscription is read. One firing per minute for all gateway processes (the schedule lives in
 * the database); a run that fails is retried with backoff, and the next minute tries again anyway.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { JobRunner } from '../jobs';
import type { BillingProvider } from './providers/provider';

export const DUE_CHANGES_QUEUE = 'billing.due-changes';

export function registerBillingJobs(jobs: JobRunner, provider: BillingProvider, log: FastifyBaseLogger): void {
  jobs.work(
    DUE_CHANGES_QUEUE,
    async () => {
      const applied = await provider.applyDueChanges();
      if (applied > 0) log.info({ applied }, 'billing: due plan changes applied');
    },
    // One run at a time; a failed one is retried (10 s, 20 s) before the next minute's.
    { policy: 'singleton', retryLimit: 2, retryDelay: 10, retryBackoff: true, expireInSeconds: 10 * 60, batchSize: 1 },
  );
  jobs.schedule(DUE_CHANGES_QUEUE, '* * * * *');
}
