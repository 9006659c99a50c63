import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppList } from '../contracts';
import { authenticate, tenantOf } from '../auth/index';
import { bearer, errorResponses } from '../lib/openapi';
import { appsOfTenant } from './apps-store';

export const appsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;
  app.get(
    '',
    {
      onRequest: authenticate,
      schema: {
        tags: ['apps'],
        security: bearer,
        summary: "The applets the caller's tenant may open",
        description:
          "Any user of a tenant (no permission). Enabled applets whose plans include the tenant's plan, or that a platform admin enabled for the tenant. A user without a tenant (a platform admin) gets 403: applets are tenant screens.",
        response: { 200: AppList, ...errorResponses(401, 403) },
      },
    },
    async (req) => ({ records: await appsOfTenant(db, tenantOf(req)) }),
  );
};
