/**
 * A message signed with several keys (the keys of mail/signing-keys.ts). RFC 6376 section 5.6: a new
 * DKIM-Signature MUST be inserted before those already there, so the keys are applied last to first and
 * the first ends on top.
 */
import type { DkimKey } from '../mail/platform-dkim';
import { dkimSignMessage } from './dkim';

/** The message signed with each of `keys` (header order: the first ends on top). Throws when one cannot sign. */
export async function signWithKeys(raw: Buffer, keys: readonly DkimKey[], signTime?: Date): Promise<Buffer> {
  let out = raw;
  for (let i = keys.length - 1; i >= 0; i--) out = await dkimSignMessage(out, keys[i]!, signTime);
  return out;
}
