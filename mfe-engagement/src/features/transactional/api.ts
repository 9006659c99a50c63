/** Transactional e-mails' calls and query keys (everything under ['transactional']). */
import { api } from '@console/shared/api';
import {
  DeliveryEventList,
  DeliveryLinkList,
  DeliveryRecipientPage,
  DeliveryTimeline,
  TransactionalAdminOverview,
  TransactionalSettings,
  TransactionalTemplateDetail,
  TransactionalTemplatePage,
} from '@console/shared/contracts';

export const TRANSACTIONAL_KEY = ['transactional'] as const;

const path = (id: string) => `/v1/transactional/templates/${encodeURIComponent(id)}`;

export const fetchTransactionalTemplates = (query: Record<string, string | number>) =>
  api.get('/v1/transactional/templates', TransactionalTemplatePage, query);

export const fetchTransactionalTemplate = (id: string) => api.get(path(id), TransactionalTemplateDetail);

export const saveTransactionalSettings = (id: string, settings: TransactionalSettings) =>
  api.put(`${path(id)}/settings`, TransactionalSettings, settings);

export const fetchAdminTransactional = () => api.get('/v1/admin/transactional', TransactionalAdminOverview);

// The template's delivery log (the shared log's routes under the template).
export const fetchTimeline = (id: string) => api.get(`${path(id)}/log/timeline`, DeliveryTimeline);
export const fetchLogRecipients = (id: string, query: Record<string, string | number>) =>
  api.get(`${path(id)}/log/recipients`, DeliveryRecipientPage, query);
export const fetchRecipientEvents = (id: string, recipientId: string) =>
  api.get(`${path(id)}/log/recipients/${encodeURIComponent(recipientId)}/events`, DeliveryEventList);
export const fetchLogLinks = (id: string) => api.get(`${path(id)}/log/links`, DeliveryLinkList);
export const exportLog = (id: string, query: Record<string, string | number>) =>
  api.download(`${path(id)}/log/export`, query);
