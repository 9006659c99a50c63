import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Tenant } from '../contracts';
import { authenticate, tenantOf } from '../auth';
import { notFound } from '../errors';
import { bearer, errorResponses } from '../lib/openapi';
import { getTenant } from './tenant-record';

const tags = ['tenants'];

/** The signed-in user's own tenant; the platform admins' routes are in admin-routes.ts. */
export const tenantRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;

  app.get(
    '/current',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security: bearer,
        summary: "The signed-in user's tenant",
        response: { 200: Tenant, ...errorResponses(401, 403, 404) },
      },
    },
    async (req) => {
      const tenant = await getTenant(db, tenantOf(req));
      if (!tenant) throw notFound('Tenant not found.');
      return tenant;
    },
  );
};
