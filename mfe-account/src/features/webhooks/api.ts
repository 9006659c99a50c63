/** The Webhooks feature's calls and query keys (everything under ['webhooks']). */
import type { QueryClient } from '@tanstack/react-query';
import { api } from '@console/shared/api';
import {
  MessageResponse,
  WebhookAttemptPage,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointSecret,
  WebhookTestResult,
  type WebhookEndpointBody,
  type WebhookEndpointUpdateBody,
} from '@console/shared/contracts';

export const WEBHOOKS_KEY = ['webhooks'] as const;
export const secretKey = (id: string) => [...WEBHOOKS_KEY, id, 'secret'] as const;
export const attemptsKey = (id: string, page: number, perPage: number) =>
  [...WEBHOOKS_KEY, id, 'attempts', page, perPage] as const;

const endpointPath = (id: string) => `/v1/webhooks/endpoints/${encodeURIComponent(id)}`;

export const fetchEndpoints = () => api.get('/v1/webhooks/endpoints', WebhookEndpointList);
export const createEndpoint = (body: WebhookEndpointBody) => api.post('/v1/webhooks/endpoints', WebhookEndpoint, body);
export const updateEndpoint = (id: string, body: WebhookEndpointUpdateBody) =>
  api.patch(endpointPath(id), WebhookEndpoint, body);
export const deleteEndpoint = (id: string) => api.delete(endpointPath(id), MessageResponse);
export const fetchSecret = (id: string) => api.get(`${endpointPath(id)}/secret`, WebhookEndpointSecret);
export const rotateSecret = (id: string) => api.post(`${endpointPath(id)}/rotate-secret`, WebhookEndpointSecret, {});
export const sendTestEvent = (id: string) => api.post(`${endpointPath(id)}/test`, WebhookTestResult, {});
export const fetchAttempts = (id: string, page: number, perPage: number) =>
  api.get(`${endpointPath(id)}/attempts?page=${page}&perPage=${perPage}`, WebhookAttemptPage);

export const invalidateWebhooks = (client: QueryClient) => client.invalidateQueries({ queryKey: WEBHOOKS_KEY });
