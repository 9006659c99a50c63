import type { FastifyPluginAsync } from 'fastify';
import { publicRoutes } from './public/routes';
import { communityRoutes } from './community/routes';
import { fileRoutes } from './storage/routes';
import { widgetRoutes } from './widgets/routes';

export { createStorage } from './storage/index';
export type { Storage } from './storage/storage';

/**
 * Onboarding: the public side (widget SDK and API, double opt-in, community pages; CORS per widget),
 * the community page, uploaded files and the sign-up widgets.
 */
export const onboardingArea: FastifyPluginAsync = async (app) => {
  await app.register(publicRoutes);
  await app.register(communityRoutes, { prefix: '/v1/communities' });
  await app.register(fileRoutes);
  await app.register(widgetRoutes, { prefix: '/v1/widgets' });
};

// What other areas use from this one.
export { escapeHtml, htmlPage } from './public/public-html';
export { clientKey, PublicThrottle } from './public/public-throttle';
export { createTenantCommunity } from './community/community-store';
export { communityUrl } from './onboarding-rules';
