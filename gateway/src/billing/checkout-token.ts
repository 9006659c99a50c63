/**
 * Tokens of the local provider's hosted checkout page: `<payload>.<signature>`, both base64url; the
 * payload names the checkout session and an expiry (lib/signed-token.ts, purpose 'checkout-token/v1':
 * a checkout token is neither a session token nor a portal token).
 */
import { signToken, verifyToken } from '../lib/signed-token';

const PURPOSE = 'checkout-token/v1';

export interface CheckoutClaims {
  sessionId: string;
  /** Expiry, ms since the epoch. */
  expiresAt: number;
}

export function signCheckoutToken(jwtSecret: Uint8Array, claims: CheckoutClaims): string {
  return signToken(jwtSecret, PURPOSE, { s: claims.sessionId }, claims.expiresAt);
}

/** The claims of a genuine, unexpired token; null otherwise. */
export function verifyCheckoutToken(jwtSecret: Uint8Array, token: string, now = Date.now()): CheckoutClaims | null {
  const claims = verifyToken(jwtSecret, PURPOSE, token, now);
  if (!claims || typeof claims.s !== 'string') return null;
  return { sessionId: claims.s, expiresAt: claims.e };
}
