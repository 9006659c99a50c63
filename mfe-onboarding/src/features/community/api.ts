/** The community page's calls and query key (['community']). */
import { useQuery } from '@tanstack/react-query';
import { ApiError, api } from '@console/shared/api';
import { Community, PresignResponse, type CommunityInput } from '@console/shared/contracts';

export const COMMUNITY_KEY = ['community'] as const;

/** GET /v1/communities/my-community; null while the tenant has none yet (404). Other errors are only logged. */
export async function fetchMyCommunity(): Promise<Community | null> {
  try {
    return await api.get('/v1/communities/my-community', Community);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    console.error('[console] community fetch failed', error);
    throw error;
  }
}

export function createCommunity(input: CommunityInput) {
  return api.post('/v1/communities', Community, input);
}

export function updateCommunity(id: string, input: CommunityInput) {
  return api.patch(`/v1/communities/${encodeURIComponent(id)}`, Community, input);
}

/**
 * Upload one image: POST /v1/files/s3-presigned-url {type}, then PUT the file to the signed URL with
 * its Content-Type and no Authorization (plain fetch, not the api client). Answers the stored address.
 */
export async function uploadImage(file: File): Promise<string> {
  const signed = await api.post('/v1/files/s3-presigned-url', PresignResponse, { type: file.type });
  const response = await fetch(signed.url, { method: 'PUT', body: file, headers: { 'Content-Type': file.type } });
  if (!response.ok) throw new Error(`Upload failed (${response.status})`);
  return signed.fileUrl;
}

export function useMyCommunity() {
  return useQuery({ queryKey: COMMUNITY_KEY, queryFn: fetchMyCommunity, retry: false });
}
