/**
 * The default storage: the gateway's own disk (`<data dir>/files/<fileKey>`), written through
 * HMAC-signed, single-purpose PUT URLs and served back by GET /files/<fileKey>.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config';
import type { ImageType, PresignResponse } from '../../contracts';
import type { Database } from '../../db/index';
import { HttpError } from '../../errors';
import { filePathOf, isFileKey, isImageType, newFileKey } from './file-keys';
import { notThatImage, sniffImageType } from './image-sniff';
import type { Storage, UploadMeta } from './storage';
import type { UploadOwner } from './upload-owner';
import { fileKeyUnder } from './storage';
import { claimUpload, findUpload, isStoredUploadOf, recordUpload, releaseUpload, type UploadRow } from './upload-rows';
import { signUpload, UPLOAD_REFUSALS, uploadSigningKey, verifyUpload } from './upload-signature';

export const FILES_ROUTE = '/files';
export const FILES_DIR = 'files';

/** Refusals while a body may still be arriving: answer, then close the connection. */
function refused(status: number, message: string): HttpError {
  return new HttpError(status, message, undefined, { Connection: 'close' });
}

/** The media type of a Content-Type header, without parameters. */
export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

export interface StoredFile {
  path: string;
  contentType: string;
  size: number;
}

export class LocalStorage implements Storage {
  readonly kind = 'local';
  private readonly key: Buffer;
  private readonly base: string;
  private readonly root: string;

  constructor(
    private readonly db: Database,
    private readonly config: Config,
  ) {
    this.key = uploadSigningKey(config.jwtSecret);
    this.base = `${config.onboarding.publicUrl}${FILES_ROUTE}`;
    this.root = path.join(config.dataDir, FILES_DIR);
  }

  async presign(owner: UploadOwner, type: ImageType, meta: UploadMeta = {}): Promise<PresignResponse> {
    const fileKey = newFileKey(type);
    const expires = Date.now() + this.config.onboarding.uploadTtlMs;
    await recordUpload(this.db, { fileKey, owner, contentType: type, expiresAt: new Date(expires), ...meta });
    const signature = signUpload(this.key, { fileKey, contentType: type, expires });
    const fileUrl = `${this.base}/${fileKey}`;
    return { url: `${fileUrl}?expires=${expires}&signature=${signature}`, fileKey, fileUrl };
  }

  addressOf(fileKey: string): string {
    return `${this.base}/${fileKey}`;
  }

  fileKeyOf(address: string): string | null {
    return fileKeyUnder(this.base, address, isFileKey);
  }

  isStored(owner: UploadOwner, fileKey: string): Promise<boolean> {
    return isStoredUploadOf(this.db, owner, fileKey);
  }

  /**
   * Checks a PUT before its body is read: a key we issued, a valid signature, not expired, the
   * signed Content-Type, not used yet. Answers the upload row, or throws 403.
   */
  async admit(
    fileKey: string,
    query: { expires?: string; signature?: string },
    contentType: string | undefined,
  ): Promise<UploadRow> {
    const row = isFileKey(fileKey) ? await findUpload(this.db, fileKey) : null;
    if (!row) throw refused(403, UPLOAD_REFUSALS.bad_signature);
    const check = verifyUpload(this.key, {
      fileKey,
      contentType: mediaType(contentType),
      expires: query.expires,
      signature: query.signature,
      signedType: row.contentType,
      now: Date.now(),
    });
    if (check !== 'ok') throw refused(403, UPLOAD_REFUSALS[check]);
    if (row.storedAt) throw refused(403, 'This upload address was already used. Ask for a new one.');
    return row;
  }

  /** Stores the body of an admitted PUT: the bytes must be the signed image type; the URL is used up. */
  async store(row: UploadRow, bytes: Buffer): Promise<void> {
    const declared = row.contentType;
    if (!isImageType(declared)) throw new Error(`upload ${row.fileKey} has an unknown type ${declared}`);
    // Spec section 5, images only: the bytes decide, not the name; the refusal names the file field.
    if (sniffImageType(bytes) !== declared) {
      throw new HttpError(400, notThatImage(declared), { file: [notThatImage(declared)] });
    }
    const target = filePathOf(this.root, row.fileKey);
    if (!target) throw refused(403, UPLOAD_REFUSALS.bad_signature);
    if (!(await claimUpload(this.db, row.fileKey, bytes.length))) {
      throw new HttpError(403, 'This upload address was already used or has expired. Ask for a new one.');
    }
    try {
      await fs.mkdir(path.dirname(target), { recursive: true });
      const temporary = `${target}.${process.pid}.partial`;
      await fs.writeFile(temporary, bytes, { flag: 'wx' });
      await fs.rename(temporary, target);
    } catch (error) {
      await releaseUpload(this.db, row.fileKey);
      throw error;
    }
  }

  /** A stored file to serve, or null. */
  async open(fileKey: string): Promise<StoredFile | null> {
    const target = filePathOf(this.root, fileKey);
    if (!target) return null;
    const row = await findUpload(this.db, fileKey);
    if (!row?.storedAt) return null;
    try {
      const stat = await fs.stat(target);
      return stat.isFile() ? { path: target, contentType: row.contentType, size: stat.size } : null;
    } catch {
      return null;
    }
  }
}
