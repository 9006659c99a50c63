/**
 * The public side of onboarding (no session), four plugins sharing one context (context.ts): the widget
 * SDK, the widget API it calls from the communities' websites, the double opt-in link, and the
 * community pages with their directory.
 */
import type { FastifyPluginAsync } from 'fastify';
import { publicContext } from './context';
import { sdkRoutes } from './sdk-routes';
import { widgetApiRoutes } from './widget-api-routes';
import { confirmRoutes } from './confirm-routes';
import { communityPageRoutes } from './community-page-routes';

export { SDK_PATH } from './sdk-routes';

export const publicRoutes: FastifyPluginAsync = async (app) => {
  const ctx = publicContext(app.deps);
  await app.register(sdkRoutes);
  await app.register(widgetApiRoutes, { ctx });
  await app.register(confirmRoutes, { ctx });
  await app.register(communityPageRoutes, { ctx });
};
