import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { QueueCountsSchema } from '../jobs';
import { EventLoopDelay } from './event-loop';
import { noSession } from '../lib/openapi';

const Health = z.object({
  ok: z.literal(true),
  /** Each job queue's counts (jobs/runner.ts); null when they cannot be read right now. */
  jobs: z.nullable(z.array(QueueCountsSchema)),
  /** How long the event loop was held up since the gateway started (health/event-loop.ts), in ms. */
  eventLoopDelay: z.object({
    sinceSeconds: z.number(),
    p50Ms: z.number(),
    p99Ms: z.number(),
    maxMs: z.number(),
  }),
});

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const eventLoop = new EventLoopDelay();
  app.addHook('onClose', async () => eventLoop.stop());
  app.get(
    '/health',
    {
      schema: {
        security: noSession,
        tags: ['health'],
        summary: 'Liveness, the job queues and the event-loop delay',
        response: { 200: Health },
      },
    },
    async () => ({
      ok: true as const,
      jobs: await app.deps.jobs.counts().catch(() => null),
      eventLoopDelay: eventLoop.summary(),
    }),
  );
};
