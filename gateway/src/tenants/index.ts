import type { FastifyPluginAsync } from 'fastify';
import { tenantRoutes } from './routes';
import { userRoutes } from './users-routes';

/** Tenants and their users (`/v1/tenants`, `/v1/users`). */
export const tenantsArea: FastifyPluginAsync = async (app) => {
  await app.register(tenantRoutes, { prefix: '/v1/tenants' });
  await app.register(userRoutes, { prefix: '/v1/users' });
};
