import type { Area } from '../area';
import { publicRoutes } from './public/routes';
import { communityRoutes } from './community/routes';
import { fileRoutes } from './storage/routes';
import { widgetRoutes } from './widgets/routes';
import { startCommunityCache } from './community/community-cache';
import type { Storage } from './storage/storage';

declare module '../deps' {
  interface Deps {
    /** Where uploaded images go (local files or S3; storage/index.ts). */
    storage: Storage;
  }
}

/**
 * Onboarding: the public side (widget SDK and API, double opt-in, community pages; CORS per widget),
 * the community page, uploaded files and the sign-up widgets.
 */
export const onboardingArea: Area = {
  // The community rows' cache listens for changes from the start (community/community-cache.ts).
  decorate: (app) => app.addHook('onReady', () => startCommunityCache(app.deps.db)),
  routes: async (app) => {
    await app.register(publicRoutes);
    await app.register(communityRoutes, { prefix: '/v1/communities' });
    await app.register(fileRoutes);
    await app.register(widgetRoutes, { prefix: '/v1/widgets' });
  },
};

// What the composition root builds once (src/composition.ts) and other areas use from this one.
export { createStorage } from './storage/index';
export type { Storage } from './storage/storage';
export { escapeHtml, htmlPage } from './public/public-html';
export { clientKey, PublicThrottle } from './public/public-throttle';
export { createTenantCommunity } from './community/community-store';
export { communityUrl } from './onboarding-rules';
export { isStoredImageOf } from './storage/storage';
export { uploadOwnerOf, type UploadOwner } from './storage/upload-owner';
export { onWidgetSignup, type WidgetSignup } from './public/signup-subscribe';
