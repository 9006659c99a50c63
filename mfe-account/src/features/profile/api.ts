/** Your Profile's calls and query key (['profile']). */
import { api, ApiError } from '@console/shared/api';
import {
  ApiErrorBody,
  PresignResponse,
  Profile,
  type EmailChangeBody,
  type ProfilePatch,
} from '@console/shared/contracts';

export const PROFILE_KEY = ['profile'] as const;

/** GET /v1/profile: the signed-in user's names, avatar, own time zone and the community's. */
export const fetchProfile = () => api.get('/v1/profile', Profile);

/** PATCH /v1/profile: only the given fields change; 400 {message, errors: {field: [..]}}. */
export const updateProfile = (patch: ProfilePatch) => api.patch('/v1/profile', Profile, patch);

/**
 * Upload the avatar as every image of the console is (spec section 7, as the community page and the
 * template designer do): POST /v1/files/s3-presigned-url {type}, then PUT the file to the signed URL with
 * its Content-Type and no Authorization (plain fetch, not the api client). Answers the stored address,
 * the `fileUrl` PATCH /v1/profile takes as `avatar`. A refusal with a message (400: the bytes are not the
 * declared image type) rejects as an ApiError carrying it, for the avatar field.
 */
export async function uploadAvatar(file: File): Promise<string> {
  const signed = await api.post('/v1/files/s3-presigned-url', PresignResponse, { type: file.type });
  const response = await fetch(signed.url, { method: 'PUT', body: file, headers: { 'Content-Type': file.type } });
  if (!response.ok) {
    const body = ApiErrorBody.safeParse(await response.json().catch(() => null));
    if (body.success && body.data.message) throw new ApiError(response.status, body.data);
    throw new Error(`The image could not be uploaded (${response.status}).`);
  }
  return signed.fileUrl;
}

/**
 * POST /v1/profile/email: the new address gets a confirmation link and becomes the sign-in address when
 * it is opened; answers the profile with `pending_email`. 400 field errors on email / current_password.
 */
export const requestEmailChange = (body: EmailChangeBody) => api.post('/v1/profile/email', Profile, body);

/** DELETE /v1/profile/email: forget the address waiting for confirmation. */
export const cancelEmailChange = () => api.delete('/v1/profile/email', Profile);
