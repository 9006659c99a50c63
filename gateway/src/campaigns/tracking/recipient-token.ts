/**
 * The recipient id a message carries where its reader can see it (the X-Recipient-Id header, the
 * mailto unsubscribe's subject): opaque, so it tells nobody how many messages the platform sent, and
 * authenticated, so it cannot be guessed. The recipient row's id (8 bytes) and 8 zero bytes are one
 * AES block, encrypted with a key derived from TRACKING_SECRET and written in base64url (22
 * characters); reading it back decrypts the block and accepts it only when the 8 bytes are zero
 * (a forgery passes with odds of 2^-64).
 */
import { createCipheriv, createDecipheriv, createHmac } from 'node:crypto';

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
