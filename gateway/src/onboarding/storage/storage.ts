/**
 * Where community images go (spec section 7): the console asks for a presigned URL, PUTs the image
 * there with its Content-Type and no Authorization, and saves the address (storage base + fileKey).
 */
import type { ImageType, PresignResponse, UploadPurpose } from '../../contracts';
import type { UploadOwner } from './upload-owner';

/** What the designer says of its uploads: kept with the upload row, listed in its image library. */
export interface UploadMeta {
  purpose?: UploadPurpose | undefined;
  name?: string | undefined;
}

export interface Storage {
  readonly kind: 'local' | 's3';
  /** A single-purpose upload URL for one image of `type`, recorded for its owner. */
  presign(owner: UploadOwner, type: ImageType, meta?: UploadMeta): Promise<PresignResponse>;
  /** The file key of an address this storage gives out (storage base + fileKey), or null for any other. */
  fileKeyOf(address: string): string | null;
  /** The address of a stored file (storage base + fileKey). */
  addressOf(fileKey: string): string;
  /** Whether the file is the owner's upload and its bytes were stored (and are the declared image type). */
  isStored(owner: UploadOwner, fileKey: string): Promise<boolean>;
}

/** The storage base: addresses are `<base>/<fileKey>`. */
export function fileKeyUnder(base: string, address: string, isKey: (key: string) => boolean): string | null {
  const prefix = `${base}/`;
  if (!address.startsWith(prefix)) return null;
  const key = address.slice(prefix.length);
  return isKey(key) ? key : null;
}

/**
 * Whether an image address can be saved by its owner (on the tenant's community, templates or a member's
 * avatar; on a user's own avatar): issued by the storage, uploaded for that owner and stored.
 */
export async function isStoredImageOf(storage: Storage, owner: UploadOwner, address: string): Promise<boolean> {
  const key = storage.fileKeyOf(address);
  return key !== null && storage.isStored(owner, key);
}
