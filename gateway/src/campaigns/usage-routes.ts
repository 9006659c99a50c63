/**
 * GET /v1/usage (spec section 3 plan usage): e-mails sent this billing period against the plan's
 * e-mail volume, what campaigns sending now reserve, and where the 80 % warning is. Any user of a
 * tenant may read it (the e-mails screen and the overview show it).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { EmailUsage } from '../contracts';
import { authenticate, tenantOf } from '../auth/index';
import { bearer, errorResponses } from '../lib/openapi';
import { emailUsageOf } from './usage';

export const usageRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, clock } = app.deps;
  app.get(
    '',
    {
      onRequest: authenticate,
      schema: {
        tags: ['campaigns'],
        security: bearer,
        summary: "The tenant's e-mail usage this billing period",
        description:
          'sent: e-mails sent this period; reserved: recipients of e-mails sending now (or paused) not sent yet; ' +
          "limit: the plan's e-mail volume; warning_at: 80 % of it. Upgrading raises the limit at once.",
        response: { 200: EmailUsage, ...errorResponses(401, 403) },
      },
    },
    async (req) => emailUsageOf(db, tenantOf(req), config.campaigns.walletMailDomain, clock()),
  );
};
