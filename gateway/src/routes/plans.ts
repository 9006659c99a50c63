import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PlanCatalogue } from '../contracts';
import { authenticate } from '../auth/guards';
import { loadCatalogue } from '../billing/catalogue-store';
import { bearer, errorResponses } from '../lib/openapi';

const tags = ['billing'];

export const planRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;

  app.get(
    '',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security: bearer,
        summary: 'The plan catalogue',
        description:
          'Any signed-in user. Four plans (BASIC first), five pricing options each (by e-mail volume), each ' +
          'with a monthly, six-month (semiAnnual) and yearly price in US dollars for the whole period and its ' +
          'price id (for GET /v1/billing/change-summary/{planPriceId}).',
        response: { 200: PlanCatalogue, ...errorResponses(401) },
      },
    },
    async () => ({ records: (await loadCatalogue(db)).plans }),
  );
};
export default planRoutes;
