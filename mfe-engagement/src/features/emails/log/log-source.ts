/**
 * Where a delivery log's figures come from (spec: automations use "the same delivery log view"): the
 * log screen takes one of these, so an automation or a transactional e-mail can show its sends by
 * giving its own calls. Campaigns and transactional templates are the sources today.
 */
import type {
  CampaignStats,
  CampaignStatus,
  DeliveryEventList,
  DeliveryLinkList,
  DeliveryRecipientPage,
  DeliveryTimeline,
} from '@console/shared/contracts';
import {
  CAMPAIGNS_KEY,
  exportLog,
  fetchCampaign,
  fetchLogLinks,
  fetchLogRecipients,
  fetchRecipientEvents,
  fetchTimeline,
} from '../api';
import { EMAILS_PATH, composePath } from '../paths';
import { isEditable } from '../campaign-rules';

export interface LogSummary {
  name: string;
  status: CampaignStatus;
  stats: CampaignStats;
  started_at: string | null;
  finished_at: string | null;
  failure_reason: string | null;
  /** Still sending: the log refreshes itself. */
  live: boolean;
  /** Where compose can still change it (a draft or scheduled one), else null. */
  editPath: string | null;
}

export interface DeliveryLogSource {
  /** Prefix of every query key of this log. */
  key: readonly unknown[];
  back: { path: string; label: string };
  exportFileName: string;
  summary: () => Promise<LogSummary>;
  timeline: () => Promise<DeliveryTimeline>;
  recipients: (query: Record<string, string | number>) => Promise<DeliveryRecipientPage>;
  events: (recipientId: string) => Promise<DeliveryEventList>;
  links: () => Promise<DeliveryLinkList>;
  exportCsv: (query: Record<string, string | number>) => Promise<Blob>;
  /**
   * Shown inside another page (a transactional template's), which has its own heading: the log's header,
   * status and progress are left out, its figures and sections stay.
   */
  embedded?: boolean;
  /** The recipients' search placeholder (default 'Search by address'). */
  searchPlaceholder?: string;
}

/** A campaign's log (GET /v1/campaigns/{id} and …/log/*). */
export function campaignLogSource(id: string): DeliveryLogSource {
  return {
    key: [...CAMPAIGNS_KEY, 'log', id],
    back: { path: EMAILS_PATH, label: 'E-mails' },
    exportFileName: 'delivery-log.csv',
    summary: async () => {
      const c = await fetchCampaign(id);
      return {
        name: c.name,
        status: c.status,
        stats: c.stats,
        started_at: c.started_at,
        finished_at: c.finished_at,
        failure_reason: c.failure_reason,
        live: c.status === 'sending',
        editPath: isEditable(c.status) ? composePath(c._id) : null,
      };
    },
    timeline: () => fetchTimeline(id),
    recipients: (query) => fetchLogRecipients(id, query),
    events: (rid) => fetchRecipientEvents(id, rid),
    links: () => fetchLogLinks(id),
    exportCsv: (query) => exportLog(id, query),
  };
}
