/**
 * The recipient id a message carries where its reader can see it (the X-Recipient-Id header, the
 * mailto unsubscribe's subject): opaque, so it tells nobody how many messages the platform sent, and
 * authenticated, so it cannot be guessed. The recipient row's id (8 bytes) and 8 zero bytes are one
 * AES block, encrypted with a key derived from TRACKING_SECRET and written in base64url (22
 * characters); reading it back decrypts the block and accepts it only when the 8 bytes are zero
 * (a forgery passes with odds of 2^-64).
 */
import { createCipheriv, createDecipheriv, createHmac, timingSafeEqual } from 'node:crypto';

const keys = new Map<string, Buffer>();

function keyOf(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = createHmac('sha256', secret).update('recipient token').digest().subarray(0, 16);
    keys.set(secret, key);
  }
  return key;
}

/** The opaque token of recipient row `id`. */
export function recipientToken(secret: string, id: number): string {
  const block = Buffer.alloc(16);
  block.writeBigUInt64BE(BigInt(id), 0);
  const cipher = createCipheriv('aes-128-ecb', keyOf(secret), null).setAutoPadding(false);
  return Buffer.concat([cipher.update(block), cipher.final()]).toString('base64url');
}

/** The recipient row id a token names, or null when it is not one of ours. */
export function recipientOfToken(secret: string, token: string): number | null {
  if (!/^[A-Za-z0-9_-]{22}$/.test(token)) return null;
  const bytes = Buffer.from(token, 'base64url');
  if (bytes.length !== 16) return null;
  const decipher = createDecipheriv('aes-128-ecb', keyOf(secret), null).setAutoPadding(false);
  const block = Buffer.concat([decipher.update(bytes), decipher.final()]);
  if (block.readBigUInt64BE(8) !== 0n) return null;
  const id = block.readBigUInt64BE(0);
  return id > 0n && id <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(id) : null;
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** RFC 4648 base32 in lower case, without padding. */
function base32(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

function fromBase32(text: string): Buffer | null {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of text) {
    const digit = BASE32.indexOf(char);
    if (digit < 0) return null;
    value = ((value << 5) | digit) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** What a signed token is for: one purpose's token is refused for another. */
export type TokenPurpose = 'bounce' | 'unsubscribe';

const SIGNED_BYTES = 24;

function tagOf(secret: string, purpose: TokenPurpose, block: Buffer): Buffer {
  return createHmac('sha256', keyOf(secret)).update(purpose).update(block).digest().subarray(0, 8);
}

/**
 * The opaque token of recipient row `id` signed for `purpose`, where a reader may change its case (an
 * e-mail address's local part, RFC 5321 section 2.4: the VERP envelope sender; the mailto
 * unsubscribe's subject): the token's 16 bytes and an HMAC-SHA256 tag of 8, in lower-case base32 (39
 * characters).
 */
export function signedRecipientToken(secret: string, purpose: TokenPurpose, id: number): string {
  const block = Buffer.from(recipientToken(secret, id), 'base64url');
  return base32(Buffer.concat([block, tagOf(secret, purpose, block)]));
}

/** The recipient row id a signed token names, or null when its tag or token is not ours (any case). */
export function recipientOfSignedToken(secret: string, purpose: TokenPurpose, text: string): number | null {
  const lower = text.toLowerCase();
  if (lower.length !== Math.ceil((SIGNED_BYTES * 8) / 5)) return null;
  const bytes = fromBase32(lower);
  if (!bytes || bytes.length !== SIGNED_BYTES || base32(bytes) !== lower) return null;
  const block = bytes.subarray(0, 16);
  if (!timingSafeEqual(bytes.subarray(16), tagOf(secret, purpose, block))) return null;
  return recipientOfToken(secret, block.toString('base64url'));
}
