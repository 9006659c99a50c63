import type { FastifyRequest } from 'fastify';
import { featureForPermission, type Permission } from '../contracts';
import { forbidden, HttpError } from '../errors';
import type { AuthContext } from './session';
import { loadSession } from './session';
import { verifyToken } from './tokens';

const BEARER = /^Bearer[ ]+([A-Za-z0-9._~+/-]+=*)[ ]*$/i;

function unauthenticated(message: string) {
  return new HttpError(401, message, undefined, { 'WWW-Authenticate': 'Bearer' });
}

/**
 * preHandler: reads `Authorization: Bearer`, verifies the token, loads the user and the tenant's
 * plan from the database (so revoked or changed users take effect at once) and sets `req.auth`.
 */
export async function authenticate(req: FastifyRequest): Promise<void> {
  if (req.auth) return;
  const match = BEARER.exec(req.headers.authorization ?? '');
  const token = match?.[1];
  if (!token) throw unauthenticated('Sign in to continue.');
  const { config, db } = req.server.deps;
  const claims = await verifyToken(config, token);
  const session = claims ? await loadSession(db, claims) : null;
  if (!session) throw unauthenticated('Your session has expired, please sign in again.');
  req.auth = session;
}

/** preHandler: authenticates, then 403 unless the effective permissions include `permission`. */
export function requirePermission(permission: Permission) {
  return async function checkPermission(req: FastifyRequest): Promise<void> {
    await authenticate(req);
    const auth = authOf(req);
    if (auth.permissions.includes(permission)) return;
    const feature = featureForPermission(permission);
    if (feature && !auth.features.includes(feature) && auth.user.grantedPermissions.includes(permission)) {
      throw forbidden('Your plan does not include this feature. Upgrade your plan to use it.');
    }
    throw forbidden();
  };
}

/**
 * preHandler: authenticates, then 403 unless the effective permissions include at least one of
 * `permissions` (e.g. custom attributes are read by the contacts grid and by their own screen).
 */
export function requireAnyPermission(...permissions: [Permission, ...Permission[]]) {
  return async function checkAnyPermission(req: FastifyRequest): Promise<void> {
    await authenticate(req);
    const auth = authOf(req);
    if (permissions.some((p) => auth.permissions.includes(p))) return;
    const blockedByPlan = permissions.some((p) => {
      const feature = featureForPermission(p);
      return feature !== null && !auth.features.includes(feature) && auth.user.grantedPermissions.includes(p);
    });
    if (blockedByPlan) throw forbidden('Your plan does not include this feature. Upgrade your plan to use it.');
    throw forbidden();
  };
}

/** The caller of an authenticated route. */
export function authOf(req: FastifyRequest): AuthContext {
  if (!req.auth) throw unauthenticated('Sign in to continue.');
  return req.auth;
}

/** The caller's tenant id, for routes on tenant data: every query is scoped by it. */
export function tenantOf(req: FastifyRequest): string {
  const { tenantId } = authOf(req);
  if (!tenantId) throw forbidden('This needs an account that belongs to a tenant.');
  return tenantId;
}
