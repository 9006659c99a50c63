import type { Area } from '../area';
import { tenantAdminRoutes } from './admin-routes';
import { dashboardRoutes } from './dashboard-routes';
import { registerTenantDeleteJob } from './delete-job';
import { tenantRoutes } from './routes';

/** Tenants (`/v1/tenants`) and the platform dashboard (`/v1/admin/dashboard`); their teams are the team area's. */
export const tenantsArea: Area = {
  routes: async (app) => {
    await app.register(tenantRoutes, { prefix: '/v1/tenants' });
    await app.register(tenantAdminRoutes, { prefix: '/v1/tenants' });
    await app.register(dashboardRoutes, { prefix: '/v1/admin' });
  },
  // A deleted tenant's data is removed in slices on the job runner.
  jobs: (jobs, { db }) => registerTenantDeleteJob(db, jobs),
};

// What other areas use from this one.
export { getTenant } from './tenant-record';
