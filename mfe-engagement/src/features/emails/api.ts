/** The e-mails (campaigns) feature's calls and query keys (everything under ['campaigns']). */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api } from '@console/shared/api';
import {
  CampaignSenders,
  AudienceCount,
  Campaign,
  CampaignPage,
  CampaignPreview,
  DeliveryEventList,
  DeliveryLinkList,
  DeliveryRecipientPage,
  DeliveryTimeline,
  MessageResponse,
  SegmentPage,
  type AudienceSelection,
  type CampaignCreate,
  type CampaignSend,
  type CampaignUpdate,
} from '@console/shared/contracts';

/** Every query of this feature starts with this key: invalidate it after a change. */
export const CAMPAIGNS_KEY = ['campaigns'] as const;

const path = (id: string) => `/v1/campaigns/${encodeURIComponent(id)}`;

export const fetchCampaigns = (query: Record<string, string | number>) => api.get('/v1/campaigns', CampaignPage, query);

export const fetchCampaign = (id: string) => api.get(path(id), Campaign);

export const createCampaign = (input: CampaignCreate) => api.post('/v1/campaigns', Campaign, input);

/** An autosave: 409 when `base_version` is stale or the campaign can no longer be changed. */
export const updateCampaign = (id: string, input: CampaignUpdate) => api.patch(path(id), Campaign, input);

/**
 * DELETE answers 204 without a body: the client reads it as '' and this stand-in for a schema takes
 * whatever came (the contracts have no schema for an empty answer).
 */
const NO_CONTENT = { parse: (): null => null } as unknown as typeof MessageResponse;
export const deleteCampaign = async (id: string): Promise<void> => {
  await api.delete(path(id), NO_CONTENT);
};

export const duplicateCampaign = (id: string, name?: string) =>
  api.post(`${path(id)}/duplicate`, Campaign, name === undefined ? {} : { name });

export type CampaignAction = 'pause' | 'resume' | 'cancel' | 'unschedule';

export const runCampaignAction = (id: string, action: CampaignAction) =>
  api.post(`${path(id)}/${action}`, Campaign, {});

/** Send now (no `scheduled_at`) or schedule. 400: incomplete; 402: over the plan's e-mail volume. */
export const sendCampaign = (id: string, input: CampaignSend) => api.post(`${path(id)}/send`, Campaign, input);

export const countAudience = (selection: AudienceSelection) =>
  api.post('/v1/campaigns/audience', AudienceCount, selection);

export const previewCampaign = (id: string, contactId: string | null) =>
  api.post(`${path(id)}/preview`, CampaignPreview, { contact_id: contactId });

export const sendTestCampaign = (id: string, to: string[], contactId: string | null) =>
  api.post(`${path(id)}/test`, MessageResponse, { to, contact_id: contactId });

export const fetchTimeline = (id: string) => api.get(`${path(id)}/log/timeline`, DeliveryTimeline);

export const fetchLogRecipients = (id: string, query: Record<string, string | number>) =>
  api.get(`${path(id)}/log/recipients`, DeliveryRecipientPage, query);

export const fetchRecipientEvents = (id: string, recipientId: string) =>
  api.get(`${path(id)}/log/recipients/${encodeURIComponent(recipientId)}/events`, DeliveryEventList);

export const fetchLogLinks = (id: string) => api.get(`${path(id)}/log/links`, DeliveryLinkList);

/** The per-recipient CSV (the filters of the grid apply), with the session's token. */
export const exportLog = (id: string, query: Record<string, string | number>) =>
  api.download(`${path(id)}/log/export`, query);

/** GET /v1/campaigns/senders: the platform's address and the verified domains compose may send from. */
export const sendersQuery = () =>
  queryOptions({
    queryKey: [...CAMPAIGNS_KEY, 'senders'],
    queryFn: () => api.get('/v1/campaigns/senders', CampaignSenders),
    staleTime: 60_000,
  });

export const campaignQuery = (id: string) =>
  queryOptions({ queryKey: [...CAMPAIGNS_KEY, 'one', id], queryFn: () => fetchCampaign(id), retry: false });

/** The tenant's segments by name for the audience pickers (the spec's all-records fetch, 1000). */
export const allSegmentsQuery = () =>
  queryOptions({
    queryKey: ['segments', 'all'],
    queryFn: () => api.get('/v1/segments', SegmentPage, { perPage: 1000, sortField: 'name', sortOrder: 'asc' }),
    staleTime: 30_000,
  });

export const invalidateCampaigns = (client: QueryClient) => client.invalidateQueries({ queryKey: CAMPAIGNS_KEY });

export { allListsQuery } from '../lists/api';
export { fetchTemplateChoices, duplicateTemplate, mergeTagsQuery } from '../templates/api';
