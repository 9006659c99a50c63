/** The webhooks' queues: fan-out, one attempt per job, and the sweep every 5 minutes. */
import type { JobRunner } from '../jobs/index';
import { DELIVER_QUEUE, FANOUT_QUEUE, SWEEP_QUEUE, type WebhookContext } from './context';
import { attemptDelivery, fanOut, sweep, type DeliverJob, type FanoutJob } from './deliveries';

export function registerWebhookJobs(jobs: JobRunner, ctx: WebhookContext): void {
  jobs.work<FanoutJob>(FANOUT_QUEUE, (job) => fanOut(ctx, job.id, job.data), { retryLimit: 5, retryDelay: 5 });
  // An attempt's failure is logged and retried by the schedule (deliveries.ts), not by the runner;
  // the runner's retries cover a job that threw (the database), and the attempt check makes them safe.
  jobs.work<DeliverJob>(
    DELIVER_QUEUE,
    async (job) => {
      await attemptDelivery(ctx, job.data.deliveryId, job.data.attempt);
    },
    // Attempts wait on other servers (up to the timeout each): several at once per process.
    { retryLimit: 3, retryDelay: 10, concurrency: 8, batchSize: 1, expireInSeconds: 120 },
  );
  jobs.work(SWEEP_QUEUE, () => sweep(ctx), { retryLimit: 0 });
  jobs.schedule(SWEEP_QUEUE, '*/5 * * * *');
}
