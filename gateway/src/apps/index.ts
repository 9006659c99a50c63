import type { Area } from '../area';
import { appsRoutes } from './routes';

/** Apps: the applets (add-on screens loaded at run time) a tenant finds under "Apps" in its sidebar. */
export const appsArea: Area = {
  routes: async (app) => {
    await app.register(appsRoutes, { prefix: '/v1/apps' });
  },
};
