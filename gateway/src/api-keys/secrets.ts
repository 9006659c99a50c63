/**
 * Key secrets: `ck_live_` and 43 base62 characters (256 random bits). The prefix lets secret scanners
 * recognise a leaked key; only the SHA-256 of the whole secret is stored. A secret this random needs
 * no slow hash (no guess can be tested offline faster than by trying 2^256 secrets).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { API_KEY_PREFIX } from '../contracts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 43 base62 characters carry 256 bits (43 × log2 62 ≈ 256.0). */
const SECRET_CHARS = 43;
/** How much of the secret after `ck_live_` lists show. */
const SHOWN_CHARS = 8;
const SECRET_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${SECRET_CHARS}}$`);

/** Random base62 text of `length` characters, without modulo bias (bytes of 248 and above are drawn again). */
function base62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= 248) continue;
      out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export interface NewSecret {
  secret: string;
  hash: string;
  prefix: string;
}

export function newSecret(): NewSecret {
  const secret = `${API_KEY_PREFIX}${base62(SECRET_CHARS)}`;
  return { secret, hash: hashSecret(secret), prefix: secret.slice(0, API_KEY_PREFIX.length + SHOWN_CHARS) };
}

/** The stored form of a secret: SHA-256, hex. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Whether a bearer credential is meant as an API key (it has the prefix), whatever its validity. */
export function looksLikeKey(credential: string): boolean {
  return credential.startsWith(API_KEY_PREFIX);
}

/** Whether a credential has the exact shape of a secret (anything else is refused without a lookup). */
export function wellFormed(credential: string): boolean {
  return SECRET_PATTERN.test(credential);
}

/** Compares two hex hashes in constant time. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
