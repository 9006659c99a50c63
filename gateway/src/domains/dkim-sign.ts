/**
 * Signing a message with DKIM keys (RFC 6376; the rule of which key signs what is dkim.ts): in the
 * off-loop pool (lib/off-loop/pool.ts), never on the gateway's event loop. dkim-signer.ts computes
 * the signatures; `mailauth` signs what that signer does not read plainly (a bare LF), and verifies
 * them in the tests. Light on purpose: the pool's threads load this without the database's modules.
 */
import { isMainThread } from 'node:worker_threads';
import type { DkimKey } from '../mail/platform-dkim';
import { once } from '../lib/once';
import { offLoop, offLoopTask } from '../lib/off-loop/pool';
import { dkimSignatures, splitMessage } from './dkim-signer';

export type { DkimKey };

/** The signed header fields: what identifies and shapes the message (RFC 6376 section 5.4.1). */
export const HEADER_LIST = [
  'From',
  'Sender',
  'Reply-To',
  'Subject',
  'Date',
  'Message-ID',
  'To',
  'Cc',
  'MIME-Version',
  'Content-Type',
  'Content-Transfer-Encoding',
  'List-Unsubscribe',
  'List-Unsubscribe-Post',
  'List-Id',
  'Feedback-ID',
];

/** mailauth's signer, loaded on the first message dkim-signer.ts does not read. */
const signer = once(() => import('mailauth/lib/dkim/sign'));

/** The message signed by mailauth with one key (the reference signer). */
async function mailauthSign(raw: Buffer, key: DkimKey, signTime?: Date): Promise<string> {
  const signature = { signingDomain: key.domain, selector: key.selector, privateKey: key.privateKey };
  // mailauth signs what `signatureData` lists (its typings also ask for the fields at the top).
  const { dkimSign } = await signer();
  const { signatures, errors } = await dkimSign(raw, {
    ...signature,
    signatureData: [signature],
    canonicalization: 'relaxed/relaxed',
    algorithm: 'rsa-sha256',
    headerList: HEADER_LIST,
    ...(signTime ? { signTime } : {}),
  });
  if (!signatures) {
    const reason = errors?.map((e) => e.err.message).join('; ');
    throw new Error(`DKIM signing failed for ${key.domain}${reason ? `: ${reason}` : ''}`);
  }
  return signatures;
}

/**
 * The DKIM-Signature header fields for `keys` (in that order), computed on this thread. Throws when a
 * key cannot sign. What the off-loop pool's workers run, and the campaign sender's build task.
 */
export async function dkimHeadersHere(raw: Buffer, keys: readonly DkimKey[], signTime?: Date): Promise<string> {
  const split = splitMessage(raw);
  if (split) {
    try {
      return dkimSignatures(split, keys, HEADER_LIST, signTime);
    } catch (error) {
      const domains = keys.map((k) => k.domain).join(', ');
      throw new Error(`DKIM signing failed for ${domains}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  let out = '';
  for (const key of keys) out += await mailauthSign(raw, key, signTime);
  return out;
}

/** The signing task of the off-loop pool (off-loop-worker.ts runs `dkimHeadersHere`). */
export const dkimSignTask = offLoopTask<{ raw: Uint8Array; keys: DkimKey[]; signTime?: Date }, string>('dkim-sign');

/**
 * The message with a DKIM-Signature header in front for each key (the first key's on top), signed in
 * the off-loop pool (here when this is a worker). Throws when a key cannot sign; rejects with
 * OffLoopRetry when the pool gave the work up.
 */
export async function dkimSignMessageWith(raw: Buffer, keys: readonly DkimKey[], signTime?: Date): Promise<Buffer> {
  if (keys.length === 0) return raw;
  const headers = isMainThread
    ? await offLoop().run(dkimSignTask, { raw, keys: [...keys], ...(signTime ? { signTime } : {}) })
    : await dkimHeadersHere(raw, keys, signTime);
  return Buffer.concat([Buffer.from(headers, 'latin1'), raw]);
}

/** The message with its DKIM-Signature header in front; throws when it could not be signed. */
export function dkimSignMessage(raw: Buffer, key: DkimKey, signTime?: Date): Promise<Buffer> {
  return dkimSignMessageWith(raw, [key], signTime);
}
