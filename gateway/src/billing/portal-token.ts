/**
 * Tokens of the local billing portal: `<payload>.<signature>`, both base64url; the payload names the
 * tenant, the console address to return to and an expiry (lib/signed-token.ts, purpose
 * 'billing-portal-token/v1': a portal token is never a session token, and the other way round).
 */
import { signToken, verifyToken } from '../lib/signed-token';

export const PORTAL_TOKEN_TTL_MS = 30 * 60 * 1000;
const PURPOSE = 'billing-portal-token/v1';

export interface PortalClaims {
  tenantId: string;
  returnUrl: string;
  /** Expiry, ms since the epoch. */
  expiresAt: number;
}

export function signPortalToken(
  jwtSecret: Uint8Array,
  claims: Omit<PortalClaims, 'expiresAt'>,
  now = Date.now(),
  ttlMs = PORTAL_TOKEN_TTL_MS,
): string {
  return signToken(jwtSecret, PURPOSE, { t: claims.tenantId, r: claims.returnUrl }, now + ttlMs);
}

/** The claims of a genuine, unexpired token; null otherwise. */
export function verifyPortalToken(jwtSecret: Uint8Array, token: string, now = Date.now()): PortalClaims | null {
  const claims = verifyToken(jwtSecret, PURPOSE, token, now);
  if (!claims || typeof claims.t !== 'string' || typeof claims.r !== 'string') return null;
  return { tenantId: claims.t, returnUrl: claims.r, expiresAt: claims.e };
}

/**
 * `value` when it is an http(s) address of the console (its origin one of CONSOLE_ORIGINS or
 * CONSOLE_URL's), normalised; null otherwise (no open redirect through the portal's return link).
 */
export function consoleReturnUrl(value: string, consoleOrigins: readonly string[], consoleUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password) return null;
  const allowed = new Set<string>();
  for (const candidate of [...consoleOrigins, consoleUrl]) {
    try {
      allowed.add(new URL(candidate).origin);
    } catch {
      /* a malformed configured origin allows nothing */
    }
  }
  return allowed.has(url.origin) ? url.href : null;
}
