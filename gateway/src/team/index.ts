import type { Area } from '../area';
import { invitationRoutes, memberRoutes } from './routes';

/** A community's team: members and invitations (`/v1/users`, `/v1/invitations`). */
export const teamArea: Area = {
  routes: async (app) => {
    await app.register(memberRoutes, { prefix: '/v1/users' });
    await app.register(invitationRoutes, { prefix: '/v1/invitations' });
  },
};
