import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { QueueCountsSchema } from '../jobs';

const Health = z.object({
  ok: z.literal(true),
  /** Each job queue's counts (jobs/runner.ts); null when they cannot be read right now. */
  jobs: z.nullable(z.array(QueueCountsSchema)),
});

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    { schema: { tags: ['health'], summary: 'Liveness, and the job queues', response: { 200: Health } } },
    async () => ({ ok: true as const, jobs: await app.deps.jobs.counts().catch(() => null) }),
  );
};
