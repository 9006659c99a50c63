import type { FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { featureForPermission, type Permission } from '../contracts';
import { forbidden, HttpError } from '../errors';
import type { AuthContext } from './session';
import { loadSession, sessionInMemory } from './session';
import { rememberedClaims, verifyToken } from './tokens';

const BEARER = /^Bearer[ ]+([A-Za-z0-9._~+/-]+=*)[ ]*$/i;
const BEARER_PREFIX = 'Bearer ';
const SIGN_IN = 'Sign in to continue.';
const EXPIRED = 'Your session has expired, please sign in again.';

function unauthenticated(message: string) {
  return new HttpError(401, message, undefined, { 'WWW-Authenticate': 'Bearer' });
}

/** The bearer token of a request, or null. */
function bearerToken(req: FastifyRequest): string | null {
  return BEARER.exec(req.headers.authorization ?? '')?.[1] ?? null;
}

/**
 * The session of a request from memory alone (the token verified before, the user and the plan
 * cached, see session-cache.ts): the session, the 401 to answer, or undefined when the database or
 * the signature check must be asked ({@link sessionOfToken}). Most requests end here, without a promise.
 */
function sessionFromMemory(req: FastifyRequest): AuthContext | HttpError | undefined {
  const { config, db } = req.server.deps;
  const header = req.headers.authorization;
  // The usual header is exactly `Bearer <token>`: a token verified before is found without the pattern.
  let claims =
    header !== undefined && header.startsWith(BEARER_PREFIX)
      ? rememberedClaims(config, header.slice(BEARER_PREFIX.length))
      : undefined;
  if (claims === undefined) {
    const token = bearerToken(req);
    if (!token) return unauthenticated(SIGN_IN);
    claims = rememberedClaims(config, token);
    if (claims === undefined) return undefined;
  }
  if (claims === null) return unauthenticated(EXPIRED);
  const session = sessionInMemory(db, claims);
  if (session === undefined) return undefined;
  return session ?? unauthenticated(EXPIRED);
}

/** The session of a request's bearer token: verifies the token, loads the user and the tenant's plan. */
async function sessionOfToken(req: FastifyRequest): Promise<AuthContext> {
  const token = bearerToken(req);
  if (!token) throw unauthenticated(SIGN_IN);
  const { config, db } = req.server.deps;
  const claims = await verifyToken(config, token);
  const session = claims ? await loadSession(db, claims) : null;
  if (!session) throw unauthenticated(EXPIRED);
  return session;
}

/**
 * Another kind of bearer credential than a session token (API keys, api-keys/key-auth.ts), told apart
 * by its prefix: it resolves to an AuthContext of its own (`apiKey` set), from memory when it can.
 */
export interface CredentialResolver {
  prefix: string;
  fromMemory(req: FastifyRequest, credential: string): AuthContext | HttpError | undefined;
  load(req: FastifyRequest, credential: string): Promise<AuthContext>;
}

const credentials: CredentialResolver[] = [];

/** Lets the guards accept another kind of credential (an area's `decorate` calls it once). */
export function acceptCredential(resolver: CredentialResolver): void {
  if (!credentials.some((c) => c.prefix === resolver.prefix)) credentials.push(resolver);
}

/** The request's credential when it is of another kind than a session token. */
function otherCredential(req: FastifyRequest): { resolver: CredentialResolver; credential: string } | null {
  const header = req.headers.authorization;
  if (credentials.length === 0 || header === undefined) return null;
  // The usual header is exactly `Bearer <credential>` (each resolver checks its credential's shape).
  const credential = header.startsWith(BEARER_PREFIX) ? header.slice(BEARER_PREFIX.length) : bearerToken(req);
  if (!credential) return null;
  for (const resolver of credentials) if (credential.startsWith(resolver.prefix)) return { resolver, credential };
  return null;
}

/** The 403 of a route that only people may call (sessions, profile, password, routes without a permission). */
export const NOT_FOR_KEYS = 'API keys cannot be used here: sign in to the console instead.';
/** The 403 of a permission outside a key's scope. */
export const OUTSIDE_SCOPE = "This API key's scope does not allow this.";

type Check = (auth: AuthContext) => void;

/** Authenticates `req` (from memory when it can, else asynchronously), runs `check`, then `done`. */
function guard(req: FastifyRequest, done: HookHandlerDoneFunction, check: Check | null): void {
  if (!req.auth) {
    const other = otherCredential(req);
    const found = other ? other.resolver.fromMemory(req, other.credential) : sessionFromMemory(req);
    if (found === undefined) {
      (other ? other.resolver.load(req, other.credential) : sessionOfToken(req)).then(
        (session) => {
          req.auth = session;
          checked(req.auth, done, check);
        },
        (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
      );
      return;
    }
    if (found instanceof HttpError) {
      done(found);
      return;
    }
    req.auth = found;
  }
  checked(req.auth, done, check);
}

function checked(auth: AuthContext, done: HookHandlerDoneFunction, check: Check | null): void {
  if (check) {
    try {
      check(auth);
    } catch (error) {
      done(error instanceof Error ? error : new Error(String(error)));
      return;
    }
  }
  done();
}

/**
 * onRequest hook: reads `Authorization: Bearer`, verifies the token, loads the user and the tenant's
 * plan (cached per process and dropped when they change, so revoked or changed users take effect at
 * once) and sets `req.auth`. A callback hook: a promise per request costs the session check throughput.
 */
export function authenticate(req: FastifyRequest, _reply: unknown, done: HookHandlerDoneFunction): void {
  guard(req, done, peopleOnly);
}

const hookPermissions = new WeakMap<object, readonly Permission[]>([[authenticate, []]]);

/** A route that names no permission is for signed-in people only: an API key gets 403. */
const peopleOnly: Check = (auth) => {
  if (auth.apiKey) throw forbidden(NOT_FOR_KEYS);
};

/** The 403 of a caller without any of `permissions`: the plan's, the key scope's, or the plain one. */
function refusal(auth: AuthContext, permissions: readonly Permission[]): HttpError {
  const blockedByPlan = permissions.some((p) => {
    const feature = featureForPermission(p);
    return feature !== null && !auth.features.includes(feature) && auth.user.grantedPermissions.includes(p);
  });
  if (blockedByPlan) return forbidden('Your plan does not include this feature. Upgrade your plan to use it.');
  return forbidden(auth.apiKey ? OUTSIDE_SCOPE : undefined);
}

/** onRequest hook: authenticates, then 403 unless the effective permissions include `permission`. */
export function requirePermission(permission: Permission) {
  const check: Check = (auth) => {
    if (auth.permissions.includes(permission)) return;
    throw refusal(auth, [permission]);
  };
  const hook = function checkPermission(req: FastifyRequest, _reply: unknown, done: HookHandlerDoneFunction): void {
    guard(req, done, check);
  };
  hookPermissions.set(hook, [permission]);
  return hook;
}

/**
 * onRequest hook: authenticates, then 403 unless the effective permissions include at least one of
 * `permissions` (e.g. custom attributes are read by the contacts grid and by their own screen).
 */
export function requireAnyPermission(...permissions: [Permission, ...Permission[]]) {
  const check: Check = (auth) => {
    if (permissions.some((p) => auth.permissions.includes(p))) return;
    throw refusal(auth, permissions);
  };
  const hook = function checkAnyPermission(req: FastifyRequest, _reply: unknown, done: HookHandlerDoneFunction): void {
    guard(req, done, check);
  };
  hookPermissions.set(hook, permissions);
  return hook;
}

/**
 * The permissions a guard hook asks for (any one of them), for the API reference (lib/openapi.ts):
 * empty for {@link authenticate} (people only), undefined for a hook that is not a guard.
 */
export function guardPermissions(hook: unknown): readonly Permission[] | undefined {
  return typeof hook === 'function' ? hookPermissions.get(hook) : undefined;
}

/** The caller of an authenticated route. */
export function authOf(req: FastifyRequest): AuthContext {
  if (!req.auth) throw unauthenticated(SIGN_IN);
  return req.auth;
}

/** The caller's tenant id, for routes on tenant data: every query is scoped by it. */
export function tenantOf(req: FastifyRequest): string {
  const { tenantId } = authOf(req);
  if (!tenantId) throw forbidden('This needs an account that belongs to a tenant.');
  return tenantId;
}
