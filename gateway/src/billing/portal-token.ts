/**
 * Tokens of the local billing portal: `<payload>.<signature>`, both base64url; the payload names the
 * tenant, the console address to return to and an expiry. HMAC-SHA256 with a key derived from the
 * JWT secret for this purpose only (a portal token is never a session token, and the other way round).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const PORTAL_TOKEN_TTL_MS = 30 * 60 * 1000;

export interface PortalClaims {
  tenantId: string;
  returnUrl: string;
  /** Expiry, ms since the epoch. */
  expiresAt: number;
}

function portalKey(jwtSecret: Uint8Array): Buffer {
  return createHmac('sha256', jwtSecret).update('billing-portal-token/v1').digest();
}

function sign(jwtSecret: Uint8Array, payload: string): string {
  return createHmac('sha256', portalKey(jwtSecret)).update(payload).digest('base64url');
}

export function signPortalToken(
  jwtSecret: Uint8Array,
  claims: Omit<PortalClaims, 'expiresAt'>,
  now = Date.now(),
  ttlMs = PORTAL_TOKEN_TTL_MS,
): string {
  const body: PortalClaims = { ...claims, expiresAt: now + ttlMs };
  const payload = Buffer.from(JSON.stringify({ t: body.tenantId, r: body.returnUrl, e: body.expiresAt })).toString(
    'base64url',
  );
  return `${payload}.${sign(jwtSecret, payload)}`;
}

/** The claims of a genuine, unexpired token; null otherwise. */
export function verifyPortalToken(jwtSecret: Uint8Array, token: string, now = Date.now()): PortalClaims | null {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(sign(jwtSecret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { t, r, e } = parsed as Record<string, unknown>;
  if (typeof t !== 'string' || typeof r !== 'string' || typeof e !== 'number') return null;
  if (e <= now) return null;
  return { tenantId: t, returnUrl: r, expiresAt: e };
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
