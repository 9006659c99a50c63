/**
 * Short-lived signed tokens for links the gateway hands out (billing portal, hosted checkout):
 * `<payload>.<signature>`, both base64url. The payload is a JSON object with an expiry `e` (ms since
 * the epoch); the signature is HMAC-SHA256 with a key derived from the JWT secret for one `purpose`
 * only, so a token of one kind is never accepted as another (nor as a session token).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

type Claims = Record<string, string | number>;

function sign(secret: Uint8Array, purpose: string, payload: string): string {
  const key = createHmac('sha256', secret).update(purpose).digest();
  return createHmac('sha256', key).update(payload).digest('base64url');
}

/** A token carrying `claims` (short keys keep links short) until `expiresAt`. */
export function signToken(secret: Uint8Array, purpose: string, claims: Claims, expiresAt: number): string {
  const payload = Buffer.from(JSON.stringify({ ...claims, e: expiresAt })).toString('base64url');
  return `${payload}.${sign(secret, purpose, payload)}`;
}

/** The claims of a genuine token of `purpose` that has not expired (with `e`, its expiry); null otherwise. */
export function verifyToken(
  secret: Uint8Array,
  purpose: string,
  token: string,
  now = Date.now(),
): (Record<string, unknown> & { e: number }) | null {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(sign(secret, purpose, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const claims: Record<string, unknown> = { ...parsed };
  const { e } = claims;
  if (typeof e !== 'number' || e <= now) return null;
  return { ...claims, e };
}
