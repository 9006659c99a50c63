import { randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { ROLES, type Role } from '../contracts';

export interface TokenSettings {
  jwtSecret: Uint8Array;
  jwtIssuer: string;
  jwtAudience: string;
  tokenTtlSeconds: number;
}

export interface TokenSubject {
  userId: string;
  tenantId: string | null;
  role: Role;
  /** The user's token version: a password change raises it and so ends every session. */
  tokenVersion: number;
  /** For impersonation tokens: the admin who is impersonating `userId`, and their token version. */
  impersonator?: { id: string; tokenVersion: number } | null;
}

const ALGORITHM = 'HS256';

/**
 * The HMAC key of a secret, imported once: jose imports a raw secret into a CryptoKey on every call,
 * a large share of the session check's time (bench/README.md, "The session check's hot path").
 */
const keys = new WeakMap<Uint8Array, Promise<CryptoKey>>();
function keyOf(secret: Uint8Array): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', new Uint8Array(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    keys.set(secret, key);
  }
  return key;
}

const Claims = z.object({
  sub: z.string().uuid(),
  tid: z.string().uuid().nullable(),
  role: z.enum(ROLES),
  ver: z.number().int(),
  imp: z.string().uuid().optional(),
  iver: z.number().int().optional(),
  /** The session's id (every token we sign has one): what a sign-out revokes. */
  jti: z.string().min(1).max(100),
  iat: z.number().int(),
  exp: z.number().int(),
});
export type TokenClaims = z.infer<typeof Claims>;

export async function signToken(settings: TokenSettings, subject: TokenSubject): Promise<string> {
  const claims: Record<string, string | number | null> = {
    tid: subject.tenantId,
    role: subject.role,
    ver: subject.tokenVersion,
  };
  if (subject.impersonator) {
    claims.imp = subject.impersonator.id;
    claims.iver = subject.impersonator.tokenVersion;
  }
  return new SignJWT(claims)
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(subject.userId)
    .setIssuer(settings.jwtIssuer)
    .setAudience(settings.jwtAudience)
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime(`${settings.tokenTtlSeconds}s`)
    .sign(await keyOf(settings.jwtSecret));
}

/** How many verified tokens each process remembers (see {@link verifyToken}). */
const VERIFIED_MAX = 10_000;
/** Verified tokens per signing key, oldest first. */
const verified = new WeakMap<Uint8Array, Map<string, Readonly<TokenClaims>>>();

/**
 * The token's claims, or null when it is malformed, forged, expired or meant for someone else.
 *
 * A token's signature, issuer, audience and claims cannot change, so each token string is checked
 * once per process and its claims remembered (at most {@link VERIFIED_MAX}, the oldest dropped: a
 * token dropped while still in use is verified once more): jose's WebCrypto check is a large share of
 * a session check's CPU (bench/README.md, "The session check's hot path"). Expiry is checked again
 * on every use. Revocation is not a property of the token: sign-out, password change, removal and
 * permission changes are checked by `loadSession` on every request (auth/session-cache.ts).
 */
export async function verifyToken(
  settings: TokenSettings,
  token: string,
  now: () => number = Date.now,
): Promise<Readonly<TokenClaims> | null> {
  const remembered = rememberedClaims(settings, token, now);
  if (remembered !== undefined) return remembered;
  let cache = verified.get(settings.jwtSecret);
  if (!cache) {
    cache = new Map();
    verified.set(settings.jwtSecret, cache);
  }
  const claims = await checkToken(settings, token, now);
  if (claims) {
    if (cache.size >= VERIFIED_MAX) cache.delete(cache.keys().next().value ?? '');
    cache.set(token, claims);
  }
  return claims;
}

/**
 * The claims of a token this process has verified before (expiry checked again), without a promise:
 * null when it has expired since, undefined when it is not remembered ({@link verifyToken} then).
 */
export function rememberedClaims(
  settings: TokenSettings,
  token: string,
  now: () => number = Date.now,
): Readonly<TokenClaims> | null | undefined {
  const hit = verified.get(settings.jwtSecret)?.get(token);
  if (hit === undefined) return undefined;
  // jose's rule: a token is expired once `exp <= now` (whole seconds, no clock tolerance).
  return hit.exp <= Math.floor(now() / 1000) ? null : hit;
}

async function checkToken(
  settings: TokenSettings,
  token: string,
  now: () => number,
): Promise<Readonly<TokenClaims> | null> {
  try {
    const { payload } = await jwtVerify(token, await keyOf(settings.jwtSecret), {
      algorithms: [ALGORITHM],
      issuer: settings.jwtIssuer,
      audience: settings.jwtAudience,
      requiredClaims: ['sub', 'iat', 'exp'],
      typ: 'JWT',
      currentDate: new Date(now()),
    });
    const parsed = Claims.safeParse(payload);
    return parsed.success ? Object.freeze(parsed.data) : null;
  } catch {
    return null; // every failure of a client-supplied token is the client's problem, never a 500
  }
}
