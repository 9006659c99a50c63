import type { Area } from '../area';
import { adminJobRoutes } from './admin-jobs-routes';
import { healthRoutes } from './routes';

/** Health: `/health` (liveness, the job queues' counts) and the job queues for platform admins (`/v1/admin/jobs`). */
export const healthArea: Area = {
  routes: async (app) => {
    await app.register(healthRoutes);
    await app.register(adminJobRoutes, { prefix: '/v1/admin/jobs' });
  },
};
