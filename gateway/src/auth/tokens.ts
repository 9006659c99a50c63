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
 * which cost the session check about a fifth of its time.
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

/** The token's claims, or null when it is malformed, forged, expired or meant for someone else. */
export async function verifyToken(settings: TokenSettings, token: string): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, await keyOf(settings.jwtSecret), {
      algorithms: [ALGORITHM],
      issuer: settings.jwtIssuer,
      audience: settings.jwtAudience,
      requiredClaims: ['sub', 'iat', 'exp'],
      typ: 'JWT',
    });
    const parsed = Claims.safeParse(payload);
    return parsed.success ? parsed.data : null;
  } catch {
    return null; // every failure of a client-supplied token is the client's problem, never a 500
  }
}
