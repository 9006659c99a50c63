/**
 * The job runner's state for platform admins: each queue with its jobs waiting (including delayed ones
 * and retries), active, failed and completed (completed and failed ones are kept for 7 days).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePermission } from '../auth';
import { QueueCountsSchema } from '../jobs';
import { bearer, errorResponses } from '../lib/openapi';

const JobsOverview = z.object({
  /** Whether this gateway process runs the handlers (WORKERS=off: a separate workers process does). */
  workers: z.boolean(),
  queues: z.array(QueueCountsSchema),
});

export const adminJobRoutes: FastifyPluginAsyncZod = async (app) => {
  const { jobs } = app.deps;
  app.get(
    '',
    {
      // Platform admins only, like the other admin routes (tenants, plans).
      onRequest: requirePermission('admin_tenants'),
      schema: {
        tags: ['admin'],
        security: bearer,
        summary: 'Background job queues and their counts (platform admins)',
        description: 'Permission admin_tenants. Counts are read live from the job table.',
        response: { 200: JobsOverview, ...errorResponses(401, 403) },
      },
    },
    async () => ({ workers: jobs.workers, queues: await jobs.counts() }),
  );
};
export default adminJobRoutes;
