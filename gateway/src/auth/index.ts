import type { FastifyPluginAsync } from 'fastify';
import { authRoutes } from './routes';

/** Auth: sign-in, verify, sign-out, password reset, e-mail confirmation, impersonation (`/v1/auth`). */
export const authArea: FastifyPluginAsync = async (app) => {
  await app.register(authRoutes, { prefix: '/v1/auth' });
};

// What other areas use from this one.
export { requireAnyPermission, requirePermission, tenantOf, authOf, authenticate } from './guards';
export { sessionChanged, SessionCache } from './session-cache';
export { burnPasswordCheck, hashPassword, verifyPassword } from './passwords';
export { guardedPasswordCheck, TOO_MANY_PASSWORD_CHECKS } from './throttle';
export { signToken } from './tokens';
export { issueOneTimeToken, revokeOneTimeTokens } from './one-time-tokens';
export { accountsOf, lockAddress, sameAddress } from './communities';
