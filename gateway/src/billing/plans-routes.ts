import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Plan, PlanCatalogue, PlanUpdate } from '../contracts';
import { IdParams } from '../lib/route-params';
import { authenticate, requirePermission } from '../auth';
import { loadCatalogue, updatePlan } from './catalogue-store';
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

  app.patch(
    '/:id',
    {
      onRequest: requirePermission('admin_plans'),
      schema: {
        tags,
        security: bearer,
        summary: 'Edit a plan of the catalogue',
        description:
          'Permission admin_plans (platform admins). Any of: label (1-100), features (the card texts, 1-12, ' +
          "each 1-120) and pricing: exactly the plan's five options in their order (by key), each with its " +
          "e-mail volume ('10.000') and the monthly, semiAnnual and yearly price (US dollars for the whole " +
          'period, above 0, at most 2 decimals, at most 1,000,000) with its price id (3-100 of A-Z a-z 0-9 _ -). ' +
          'Price ids are unique across the catalogue; a price a subscription uses keeps its id; volumes rise ' +
          'from one option to the next. 400 names the fields (e.g. pricing.2.yearly.price). Stored in one ' +
          'transaction; answers the updated plan, which GET /v1/plans and the change summary use at once.',
        params: IdParams,
        body: PlanUpdate,
        response: { 200: Plan, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => updatePlan(db, req.params.id, req.body),
  );
};
export default planRoutes;
