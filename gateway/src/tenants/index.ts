import type { FastifyPluginAsync } from 'fastify';
import { tenantRoutes } from './routes';

/** Tenants (`/v1/tenants`); their teams are the team area's. */
export const tenantsArea: FastifyPluginAsync = async (app) => {
  await app.register(tenantRoutes, { prefix: '/v1/tenants' });
};
