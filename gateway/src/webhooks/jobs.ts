/** The webhooks' queues: fan-out, one attempt per job, and the sweep every 5 minutes. */
import type { JobRunner } from '../jobs/index';
import { DELIVER_QUEUE, FANOUT_QUEUE, SWEEP_QUEUE, type WebhookContext } from './context';
import { attemptDelivery, fanOut, sweep, type DeliverJob, type FanoutJob } from './deliveries';

export function registerWebhookJobs(jobs: JobRunner, ctx: WebhookContext): void {
  // A fan-out makes its first attempts itself (deliveries.ts), so two jobs run at once per process.
  jobs.work<FanoutJob>(FANOUT_QUEUE, (job) => fanOut(ctx, job.id, job.data, job.signal), {
    retryLimit: 5,
    retryDelay: 5,
    concurrency: 2,
  });
  // A retry's failure is logged and retried by the schedule (deliveries.ts), not by the runner; the
  // runner's retries cover a job that threw (the database), and the attempt check makes them safe.
  // Each worker takes 4 due retries at a time and makes them one after another (at most 4 timeouts, 40 s).
  jobs.work<DeliverJob>(
    DELIVER_QUEUE,
    async (job) => {
      await attemptDelivery(ctx, job.data.deliveryId, job.data.attempt);
    },
    { retryLimit: 3, retryDelay: 10, concurrency: 4, batchSize: 4, expireInSeconds: 120 },
  );
  jobs.work(SWEEP_QUEUE, () => sweep(ctx), { retryLimit: 0 });
  jobs.schedule(SWEEP_QUEUE, '*/5 * * * *');
}
