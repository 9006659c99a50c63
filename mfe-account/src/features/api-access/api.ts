/** The API Access feature's calls and query keys (everything under ['api-keys']). */
import type { QueryClient } from '@tanstack/react-query';
import { api } from '@console/shared/api';
import { ApiKey, ApiKeyEventPage, ApiKeyPage, CreatedApiKey, type CreateApiKeyBody } from '@console/shared/contracts';

export const API_KEYS_KEY = ['api-keys'] as const;
export const KEY_LIST_KEY = [...API_KEYS_KEY, 'list'] as const;
export const KEY_EVENTS_KEY = [...API_KEYS_KEY, 'events'] as const;

/** GET /v1/api-keys: one page of the community's keys (never their secrets). */
export const fetchKeys = (query: Record<string, string | number>) => api.get('/v1/api-keys', ApiKeyPage, query);

/** GET /v1/api-keys/events: one page of the keys' audit list. */
export const fetchKeyEvents = (query: Record<string, string | number>) =>
  api.get('/v1/api-keys/events', ApiKeyEventPage, query);

/** POST /v1/api-keys: the answer carries the secret, this once. */
export const createKey = (body: CreateApiKeyBody) => api.post('/v1/api-keys', CreatedApiKey, body);

/** DELETE /v1/api-keys/{id}: refused from the next request on. */
export const revokeKey = (id: string) => api.delete(`/v1/api-keys/${encodeURIComponent(id)}`, ApiKey);

/** After a create or a revoke: the keys and their audit list. */
export const invalidateKeys = (client: QueryClient) => client.invalidateQueries({ queryKey: API_KEYS_KEY });
