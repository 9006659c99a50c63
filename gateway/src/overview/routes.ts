import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Overview } from '../contracts';
import { authenticate, tenantOf } from '../auth/index';
import { bearer, errorResponses } from '../lib/openapi';
import { readOverview } from './overview-store';

export const overviewRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, clock, config } = app.deps;
  app.get(
    '',
    {
      onRequest: authenticate,
      schema: {
        tags: ['overview'],
        security: bearer,
        summary: "The overview's figures for the caller's tenant",
        description:
          'Any user of a tenant. Contacts over the last 90 days and by source, the last campaigns with their open and click rates, and e-mail usage against the plan.',
        response: { 200: Overview, ...errorResponses(401, 403) },
      },
    },
    async (req) => readOverview(db, tenantOf(req), config.campaigns.walletMailDomain, clock()),
  );
};
