/**
 * Signed upload URLs of the local storage: HMAC-SHA256 over "PUT\n<fileKey>\n<contentType>\n<expires>",
 * with a key derived from the JWT secret for this one purpose.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface UploadGrant {
  fileKey: string;
  contentType: string;
  /** Unix time in milliseconds after which the URL is refused. */
  expires: number;
}

/** The signing key of upload URLs (never the JWT secret itself). */
export function uploadSigningKey(secret: Uint8Array): Buffer {
  return createHmac('sha256', secret).update('upload-url-v1').digest();
}

export function signUpload(key: Buffer, grant: UploadGrant): string {
  return createHmac('sha256', key)
    .update(`PUT\n${grant.fileKey}\n${grant.contentType}\n${grant.expires}`)
    .digest('hex');
}

export type UploadCheck = 'ok' | 'unsigned' | 'bad_signature' | 'expired' | 'wrong_type';

export interface UploadAttempt {
  fileKey: string;
  /** The Content-Type the PUT came with. */
  contentType: string;
  /** Query parameters as sent (strings, or missing). */
  expires: string | undefined;
  signature: string | undefined;
  /** The content type the key was issued for. */
  signedType: string;
  now: number;
}

const HEX_SHA256 = /^[0-9a-f]{64}$/;

/** Whether a PUT may store its body: signed by us, not expired, with the content type it was signed for. */
export function verifyUpload(key: Buffer, a: UploadAttempt): UploadCheck {
  if (!a.expires || !a.signature) return 'unsigned';
  if (!/^\d{1,16}$/.test(a.expires) || !HEX_SHA256.test(a.signature)) return 'bad_signature';
  const expires = Number(a.expires);
  const expected = Buffer.from(signUpload(key, { fileKey: a.fileKey, contentType: a.signedType, expires }), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(a.signature, 'hex'))) return 'bad_signature';
  if (a.now >= expires) return 'expired';
  if (a.contentType !== a.signedType) return 'wrong_type';
  return 'ok';
}

export const UPLOAD_REFUSALS: Record<Exclude<UploadCheck, 'ok'>, string> = {
  unsigned: 'This upload address is not signed. Ask for a new one.',
  bad_signature: 'This upload address is not valid. Ask for a new one.',
  expired: 'This upload address has expired. Ask for a new one.',
  wrong_type: 'Send the file with the Content-Type the upload address was made for.',
};
