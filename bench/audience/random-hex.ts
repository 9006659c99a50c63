// Random hex strings from one large randomBytes buffer at a time (a call per address costs more than the address).
import { randomBytes } from 'node:crypto';

const BLOCK = 20 * 65_536;
let buffer = Buffer.alloc(0);
let position = 0;

/** `bytes` random bytes (at most 20) as lower-case hex. */
export function randomHex(bytes = 20): string {
  if (position + bytes > buffer.length) {
    buffer = randomBytes(BLOCK);
    position = 0;
  }
  const hex = buffer.toString('hex', position, position + bytes);
  position += bytes;
  return hex;
}
