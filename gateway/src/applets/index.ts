import type { Area } from '../area';
import { appletRoutes } from './routes';

/** Applets administration (`/v1/applets`, admin_applets): add-on screens offered to tenants as federated remotes. */
export const appletsArea: Area = {
  routes: async (app) => {
    await app.register(appletRoutes, { prefix: '/v1/applets' });
  },
};
