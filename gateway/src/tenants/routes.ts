import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Tenant, TenantListQuery, TenantPage } from '../contracts';
import { authenticate, requirePermission, tenantOf } from '../auth';
import { getTenant, listTenants } from '../db/tenants';
import { notFound } from '../errors';
import { bearer, errorResponses } from '../lib/openapi';
import { paginate } from '../lib/pagination';

const tags = ['tenants'];

export const tenantRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;

  app.get(
    '',
    {
      onRequest: requirePermission('admin_tenants'),
      schema: {
        tags,
        security: bearer,
        summary: 'List tenants (platform admins)',
        description: "Permission admin_tenants. Search on name; includeOwner adds each tenant's owner and users.",
        querystring: TenantListQuery,
        response: { 200: TenantPage, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      const { records, count } = await listTenants(db, req.query);
      return { records, pagination: paginate(req.query.page, req.query.perPage, count) };
    },
  );

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
