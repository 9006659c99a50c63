import type { Area } from '../area';
import { profileRoutes, settingsRoutes } from './routes';

/** The signed-in user's profile and the community's general settings (`/v1/profile`, `/v1/settings`). */
export const accountArea: Area = {
  routes: async (app) => {
    await app.register(profileRoutes, { prefix: '/v1/profile' });
    await app.register(settingsRoutes, { prefix: '/v1/settings' });
  },
};
