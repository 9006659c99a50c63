/**
 * GET /v1/plans/public: the plan catalogue without a session, for the checkout page
 * (/checkout/:price_id), which new customers open before they have an account. The same data as
 * GET /v1/plans: plans, prices and price ids are public.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PlanCatalogue } from '../contracts';
import { loadCatalogue } from './catalogue-store';
import { noSession } from '../lib/openapi';

export const publicPlanRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;
  app.get(
    '/v1/plans/public',
    {
      schema: {
        security: noSession,
        tags: ['billing'],
        summary: 'The plan catalogue, without a session (checkout)',
        description: 'The same catalogue as GET /v1/plans, for new customers choosing a price to check out.',
        response: { 200: PlanCatalogue },
      },
    },
    async () => ({ records: (await loadCatalogue(db)).plans }),
  );
};
export default publicPlanRoutes;
