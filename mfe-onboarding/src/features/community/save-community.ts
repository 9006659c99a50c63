/**
 * The community save of spec section 4, in order: the text fields (POST when new, else PATCH, no image
 * state, no alias); then the new logo / background uploads (presign + PUT); then a second PATCH with
 * their addresses (a cleared image as null). The caller refetches and toasts.
 */
import type { Community, CommunityInput } from '@console/shared/contracts';
import { createCommunity, updateCommunity, uploadImage } from './api';
import { formToTextInput, type CommunityFormValues } from './community-values';
import type { ImageState } from './image-state';

export type ImageSlot = 'logo' | 'background';
export const IMAGE_SLOTS: readonly ImageSlot[] = ['logo', 'background'];

export const UPLOAD_FAILED = 'The image could not be uploaded. Please try again.';

/** An upload (presign or PUT) failed; the text fields are already saved. */
export class ImageUploadError extends Error {
  constructor(readonly field: ImageSlot) {
    super(UPLOAD_FAILED);
    this.name = 'ImageUploadError';
  }
}

export interface SaveCommunityInput {
  /** The stored community's id; null saves a new one (POST). */
  id: string | null;
  values: CommunityFormValues;
  images: Record<ImageSlot, ImageState>;
  /** Told once the text save succeeded (a failure after it must still refetch). */
  onTextSaved?: (community: Community) => void;
}

async function imageInput(images: Record<ImageSlot, ImageState>): Promise<CommunityInput> {
  const input: CommunityInput = {};
  for (const field of IMAGE_SLOTS) {
    const state = images[field];
    if (state.kind === 'cleared') input[field] = null;
    if (state.kind === 'picked') {
      try {
        input[field] = await uploadImage(state.image.file);
      } catch (error) {
        console.error(`[console] ${field} upload failed`, error);
        throw new ImageUploadError(field);
      }
    }
  }
  return input;
}

export async function saveCommunity({ id, values, images, onTextSaved }: SaveCommunityInput): Promise<Community> {
  const text = formToTextInput(values);
  const saved = id === null ? await createCommunity(text) : await updateCommunity(id, text);
  onTextSaved?.(saved);
  const withImages = await imageInput(images);
  if (Object.keys(withImages).length === 0) return saved;
  return updateCommunity(saved._id, withImages);
}
