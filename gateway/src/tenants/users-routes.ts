import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { UserListQuery, UserPage } from '../contracts';
import { requirePermission, tenantOf } from '../auth';
import { listTenantUsers } from '../db/tenant-users';
import { bearer, errorResponses } from '../lib/openapi';
import { paginate } from '../lib/pagination';

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;

  app.get(
    '',
    {
      onRequest: requirePermission('manage_users'),
      schema: {
        tags: ['users'],
        security: bearer,
        summary: "Users of the caller's tenant",
        description: 'Permission manage_users. Search on e-mail and names; sort by created_at or email.',
        querystring: UserListQuery,
        response: { 200: UserPage, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      const { records, count } = await listTenantUsers(db, tenantOf(req), req.query);
      return { records, pagination: paginate(req.query.page, req.query.perPage, count) };
    },
  );
};
