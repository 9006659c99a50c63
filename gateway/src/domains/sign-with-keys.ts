/**
 * A message signed with several keys (the keys of mail/signing-keys.ts), the first key's signature on
 * top: RFC 6376 section 5.6 inserts a new DKIM-Signature before those already there, as if the keys
 * signed last to first. No signature covers another (DKIM-Signature is not in the signed header list,
 * dkim.ts), so each is computed over the same message, at once, and the headers are put in order.
 */
import type { DkimKey } from '../mail/platform-dkim';
import { dkimSignMessage } from './dkim';

/** The message signed with each of `keys` (header order: the first ends on top). Throws when one cannot sign. */
export async function signWithKeys(raw: Buffer, keys: readonly DkimKey[], signTime?: Date): Promise<Buffer> {
  if (keys.length === 0) return raw;
  if (keys.length === 1) return dkimSignMessage(raw, keys[0]!, signTime);
  // dkimSignMessage answers the message with its signature header in front: the header is what precedes it.
  const signed = await Promise.all(keys.map((key) => dkimSignMessage(raw, key, signTime)));
  return Buffer.concat([...signed.map((message) => message.subarray(0, message.length - raw.length)), raw]);
}
