import type { FastifyPluginAsync } from 'fastify';
import { domainRoutes } from './routes';

/** Custom sending domains (`/v1/domains`). */
export const domainsArea: FastifyPluginAsync = async (app) => {
  await app.register(domainRoutes, { prefix: '/v1/domains' });
};

// What other areas use from this one.
export { registerDomainJobs, recheckDomains, RECHECK_QUEUE } from './recheck-job';
