import type { Area } from '../area';
import { invitationRoutes, memberRoutes, teamEventRoutes } from './routes';

/** A community's team: members, invitations and its activity (`/v1/users`, `/v1/invitations`, `/v1/team-events`). */
export const teamArea: Area = {
  routes: async (app) => {
    await app.register(memberRoutes, { prefix: '/v1/users' });
    await app.register(invitationRoutes, { prefix: '/v1/invitations' });
    await app.register(teamEventRoutes, { prefix: '/v1/team-events' });
  },
};
