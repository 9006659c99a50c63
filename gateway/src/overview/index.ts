import type { FastifyPluginAsync } from 'fastify';
import { overviewRoutes } from './routes';

/** The overview (route `overview`, spec section 2): contacts over time and by source, last campaigns, usage. */
export const overviewArea: FastifyPluginAsync = async (app) => {
  await app.register(overviewRoutes, { prefix: '/v1/overview' });
};
