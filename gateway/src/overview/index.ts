import type { Area } from '../area';
import { overviewRoutes } from './routes';

/** The overview (route `overview`, spec section 2): contacts over time and by source, last campaigns, usage. */
export const overviewArea: Area = {
  routes: async (app) => {
    await app.register(overviewRoutes, { prefix: '/v1/overview' });
  },
};
