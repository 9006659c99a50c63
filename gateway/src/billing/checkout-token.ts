/**
 * Tokens of the local provider's hosted checkout page: `<payload>.<signature>`, both base64url; the
 * payload names the checkout session and an expiry. HMAC-SHA256 with a key derived from the JWT secret
 * for this purpose only (a checkout token is neither a session token nor a portal token).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface CheckoutClaims {
  sessionId: string;
  /** Expiry, ms since the epoch. */
  expiresAt: number;
}

function checkoutKey(jwtSecret: Uint8Array): Buffer {
  return createHmac('sha256', jwtSecret).update('checkout-token/v1').digest();
}

function sign(jwtSecret: Uint8Array, payload: string): string {
  return createHmac('sha256', checkoutKey(jwtSecret)).update(payload).digest('base64url');
}

export function signCheckoutToken(jwtSecret: Uint8Array, claims: CheckoutClaims): string {
  const payload = Buffer.from(JSON.stringify({ s: claims.sessionId, e: claims.expiresAt })).toString('base64url');
  return `${payload}.${sign(jwtSecret, payload)}`;
}

/** The claims of a genuine, unexpired token; null otherwise. */
export function verifyCheckoutToken(jwtSecret: Uint8Array, token: string, now = Date.now()): CheckoutClaims | null {
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
  const { s, e } = parsed as Record<string, unknown>;
  if (typeof s !== 'string' || typeof e !== 'number') return null;
  if (e <= now) return null;
  return { sessionId: s, expiresAt: e };
}
