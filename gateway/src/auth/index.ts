import type { Area } from '../area';
import { authRoutes } from './routes';
import type { AuthContext } from './session';
import { startSessionCache } from './session-cache';
import type { LoginThrottle } from './throttle';

declare module '../deps' {
  interface Deps {
    /** The password-guessing limits on sign-in and every later password check (throttle.ts). */
    throttle: LoginThrottle;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `authenticate` / `requirePermission`; null on public routes. */
    auth: AuthContext | null;
  }
}

/** Auth: sign-in, verify, sign-out, password reset, e-mail confirmation, impersonation (`/v1/auth`). */
export const authArea: Area = {
  decorate: (app) => {
    app.decorateRequest('auth', null);
    // The session check's cache listens for changes from the start (session-cache.ts).
    app.addHook('onReady', () => startSessionCache(app.deps.db));
  },
  routes: async (app) => {
    await app.register(authRoutes, { prefix: '/v1/auth' });
  },
};

// What other areas use from this one.
export { requireAnyPermission, requirePermission, tenantOf, authOf, authenticate } from './guards';
export { acceptCredential, guardPermissions, NOT_FOR_KEYS, OUTSIDE_SCOPE, type CredentialResolver } from './guards';
export { sessionChanged, SessionCache, followerCacheOf } from './session-cache';
export { notifiedCache, type NotifiedCache } from './notified-cache';
export { accessVersionOf, loadUser, userInMemory, type ApiKeyCaller, type UserRow } from './session';
export { burnPasswordCheck, hashPassword, verifyPassword } from './passwords';
export { refuseWeakPassword } from './password-strength';
export { guardedPasswordCheck, LoginThrottle, TOO_MANY_PASSWORD_CHECKS } from './throttle';
export type { AuthContext } from './session';
export { SESSION_VERSION_HEADER } from './session';
export { actorOf, recordTeamEvent, type TeamActor } from './team-events';
export { signToken } from './tokens';
export { issueOneTimeToken, revokeOneTimeTokens } from './one-time-tokens';
export { accountsOf, lockAddress, sameAddress } from './communities';
export { cancelEmailChange, requestEmailChange } from './email-change';
export { hashToken } from './one-time-tokens';
