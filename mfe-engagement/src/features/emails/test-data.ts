/** Campaigns as the gateway answers them, for the e-mails tests. */
import type { AudienceCount, Campaign, CampaignSummary } from '@console/shared/contracts';

export const stats = (over: Partial<CampaignSummary['stats']> = {}): CampaignSummary['stats'] => ({
  recipients: 0,
  sent: 0,
  delivered: 0,
  bounced: 0,
  failed: 0,
  unconfirmed: 0,
  opened: 0,
  clicked: 0,
  unsubscribed: 0,
  complained: 0,
  open_rate: 0,
  click_rate: 0,
  ...over,
});

export const summary = (over: Partial<CampaignSummary> = {}): CampaignSummary => ({
  _id: 'c1',
  name: 'Spring drop',
  subject: 'The spring drop is here',
  status: 'draft',
  audience_label: 'Newsletter',
  scheduled_at: null,
  started_at: null,
  finished_at: null,
  stats: stats(),
  failure_reason: null,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
  ...over,
});

export const campaign = (over: Partial<Campaign> = {}): Campaign => ({
  ...summary(),
  preview_text: '',
  template_id: 't1',
  audience: { include_lists: ['l1'], include_segments: [], exclude_lists: [], exclude_segments: [] },
  from_name: '',
  from_email: '',
  reply_to: '',
  track_opens: true,
  track_clicks: true,
  utm: { source: '', medium: '', campaign: '', term: '', content: '' },
  time_zone: 'UTC',
  version: 1,
  ...over,
});

export const audienceCount = (over: Partial<AudienceCount> = {}): AudienceCount => ({
  matched: 12,
  reachable: 9,
  email: 9,
  wallet: 0,
  excluded: 0,
  unsubscribed: 1,
  bounced: 0,
  complained: 0,
  no_address: 2,
  duplicates: 0,
  wallet_mail_domain: null,
  ...over,
});
