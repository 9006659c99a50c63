import type { FastifyPluginAsync } from 'fastify';
import { tenantAdminRoutes } from './admin-routes';
import { dashboardRoutes } from './dashboard-routes';
import { tenantRoutes } from './routes';

/** Tenants (`/v1/tenants`) and the platform dashboard (`/v1/admin/dashboard`); their teams are the team area's. */
export const tenantsArea: FastifyPluginAsync = async (app) => {
  await app.register(tenantRoutes, { prefix: '/v1/tenants' });
  await app.register(tenantAdminRoutes, { prefix: '/v1/tenants' });
  await app.register(dashboardRoutes, { prefix: '/v1/admin' });
};

// What other areas use from this one.
export { getTenant } from './tenant-record';
export { registerTenantDeleteJob } from './delete-job';
