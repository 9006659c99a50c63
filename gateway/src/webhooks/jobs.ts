/** The webhooks' work: the outbox's drain, one attempt per retry job, and the sweep every 5 minutes. */
import type { JobRunner } from '../jobs/index';
import type { BackgroundTasks } from '../lib/background';
import { DELIVER_QUEUE, SWEEP_QUEUE, type WebhookContext } from './context';
import { attemptDelivery, sweep, type DeliverJob } from './deliveries';
import { OutboxDrain } from './outbox';

/**
 * Declares the queues; answers the outbox's drain of this process (null where no workers run: there the
 * workers process drains what this one writes).
 */
export function registerWebhookJobs(
  jobs: JobRunner,
  ctx: WebhookContext,
  background: BackgroundTasks,
  pollSeconds: number,
): OutboxDrain | null {
  // A retry's failure is logged and retried by the schedule (deliveries.ts), not by the runner; the
  // runner's retries cover a job that threw (the database), and the attempt's hold makes them safe.
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
  if (!jobs.workers) return null;
  const signal = jobs.stopSignal;
  const drain = new OutboxDrain(ctx, background, signal);
  jobs.onStart(async () => {
    drain.wake();
    // Rows left by a process that ended (once their lease ran out), or written where no workers run.
    const timer = setInterval(() => drain.wake(), pollSeconds * 1000);
    timer.unref();
    signal.addEventListener('abort', () => clearInterval(timer), { once: true });
  });
  return drain;
}
