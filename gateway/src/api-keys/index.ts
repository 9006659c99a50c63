import type { Area } from '../area';
import { acceptCredential } from '../auth/index';
import { apiKeyCredentials } from './key-auth';
import { accessKeyRoutes, apiKeyRoutes } from './routes';

/** API access: a tenant's keys (`/v1/api-keys`, spec section 7's `/v1/tenants/access-keys`) and key authentication. */
export const apiKeysArea: Area = {
  // The guards accept `Authorization: Bearer ck_live_…` on every route that names a permission.
  decorate: () => acceptCredential(apiKeyCredentials),
  routes: async (app) => {
    await app.register(apiKeyRoutes, { prefix: '/v1/api-keys' });
    await app.register(accessKeyRoutes, { prefix: '/v1/tenants' });
  },
};

// What other areas use from this one.
export { scopePermissions, scopesWith } from './scopes';
export { keyScopesOfRoute } from './openapi-scopes';
