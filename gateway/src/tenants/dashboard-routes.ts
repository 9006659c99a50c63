import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PlatformDashboard } from '../contracts';
import { bearer, errorResponses } from '../lib/openapi';
import { platformDashboard } from './dashboard';
import { requireTenantAdmin } from './guard';

/** GET /v1/admin/dashboard: platform staff holding admin_tenants, like the tenant list (guard.ts). */
export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  app.get(
    '/dashboard',
    {
      onRequest: requireTenantAdmin,
      schema: {
        tags: ['tenants'],
        security: bearer,
        summary: 'The platform dashboard (super admins)',
        description:
          'Tenants by plan, new and churned tenants per day (90 days), MRR, e-mails sent per day (30 days) and the ' +
          '20 worst senders by bounce or complaint rate (30 days, at least 100 sent), flagged above 2 % bounces or 0.1 % complaints.',
        response: { 200: PlatformDashboard, ...errorResponses(401, 403) },
      },
    },
    async () => platformDashboard(deps.db, deps.clock()),
  );
};
