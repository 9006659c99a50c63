/**
 * S3 storage (config.onboarding.s3): the console PUTs straight to the bucket through a presigned
 * PutObject URL bound to the content type; the gateway checks the stored object's first bytes before
 * an address may be saved on a community.
 */
import { createRequire } from 'node:module';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import type { OnboardingConfig } from '../../config';
import { MAX_IMAGE_BYTES, type ImageType, type PresignResponse } from '../../contracts';
import type { Database } from '../../db/index';
import { isFileKey, isImageType, newFileKey } from './file-keys';
import { SNIFF_BYTES, sniffImageType } from './image-sniff';
import type { Storage, UploadMeta } from './storage';
import { isOwnedBy, type UploadOwner } from './upload-owner';
import { fileKeyUnder } from './storage';
import { findUpload, markStored, recordUpload } from './upload-rows';

export type S3Settings = NonNullable<OnboardingConfig['s3']>;

/** Where stored objects are read from by browsers: the public base when set, else the bucket's own URL. */
export function s3PublicBase(s3: S3Settings): string {
  if (s3.publicBaseUrl) return s3.publicBaseUrl.replace(/\/+$/, '');
  if (s3.endpoint) return `${s3.endpoint.replace(/\/+$/, '')}/${s3.bucket}`;
  return `https://${s3.bucket}.s3.${s3.region}.amazonaws.com`;
}

/** Total size from a Content-Range answer ("bytes 0-11/12345"). */
function totalSize(contentRange: string | undefined, fallback: number): number {
  const total = /\/(\d+)$/.exec(contentRange ?? '')?.[1];
  return total ? Number(total) : fallback;
}

const require = createRequire(import.meta.url);
/** The AWS SDK, loaded when S3 storage is built: a gateway storing files on its disk never loads it. */
function awsSdk() {
  return {
    ...(require('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3')),
    ...(require('@aws-sdk/s3-request-presigner') as typeof import('@aws-sdk/s3-request-presigner')),
  };
}

export class S3Storage implements Storage {
  readonly kind = 's3';
  private readonly client: S3Client;
  private readonly base: string;
  private readonly sdk = awsSdk();

  /** `client` settings (e.g. credentials) add to those from the config; the default credential chain otherwise. */
  constructor(
    private readonly db: Database,
    private readonly s3: S3Settings,
    private readonly ttlMs: number,
    client: Partial<S3ClientConfig> = {},
  ) {
    this.client = new this.sdk.S3Client({
      region: s3.region,
      // Otherwise the presigned PutObject carries the checksum of an empty body and S3 refuses the upload.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(s3.endpoint && { endpoint: s3.endpoint, forcePathStyle: true }),
      ...client,
    });
    this.base = s3PublicBase(s3);
  }

  async presign(owner: UploadOwner, type: ImageType, meta: UploadMeta = {}): Promise<PresignResponse> {
    const fileKey = newFileKey(type);
    const expiresIn = Math.max(1, Math.ceil(this.ttlMs / 1000));
    await recordUpload(this.db, {
      fileKey,
      owner,
      contentType: type,
      expiresAt: new Date(Date.now() + expiresIn * 1000),
      ...meta,
    });
    const url = await this.sdk.getSignedUrl(
      this.client,
      new this.sdk.PutObjectCommand({ Bucket: this.s3.bucket, Key: fileKey, ContentType: type }),
      { expiresIn, signableHeaders: new Set(['content-type']) },
    );
    return { url, fileKey, fileUrl: `${this.base}/${fileKey}` };
  }

  addressOf(fileKey: string): string {
    return `${this.base}/${fileKey}`;
  }

  fileKeyOf(address: string): string | null {
    return fileKeyUnder(this.base, address, isFileKey);
  }

  /** Stored when the object exists, is at most MAX_IMAGE_BYTES and its first bytes are the declared type. */
  async isStored(owner: UploadOwner, fileKey: string): Promise<boolean> {
    const row = await findUpload(this.db, fileKey);
    if (!row || !isOwnedBy(row, owner) || !isImageType(row.contentType)) return false;
    if (row.storedAt) return true;
    try {
      const object = await this.client.send(
        new this.sdk.GetObjectCommand({ Bucket: this.s3.bucket, Key: fileKey, Range: `bytes=0-${SNIFF_BYTES - 1}` }),
      );
      const head = (await object.Body?.transformToByteArray()) ?? new Uint8Array();
      const size = totalSize(object.ContentRange, head.length);
      if (size > MAX_IMAGE_BYTES || sniffImageType(head) !== row.contentType) return false;
      await markStored(this.db, fileKey, size);
      return true;
    } catch {
      // No such object (never uploaded), or the bucket is unreachable: not a stored image (yet).
      return false;
    }
  }
}
