/**
 * Campaigns: the e-mails a community sends to its audience (spec section 2: engagement/emails,
 * engagement/emails/compose/:id?, engagement/emails/log/:id; permission `view_engagement_emails`).
 * One place for the console and the gateway.
 *
 * A campaign is a draft until it is sent or scheduled. Its audience is lists and segments to include
 * and to exclude; the audience is taken (snapshotted into recipients, each address once) when
 * sending starts. Each recipient moves queued → sending → handing (its message being handed over),
 * then delivered, deferred (retried), bounced, failed or unconfirmed (handed over, no answer read: it
 * may not have arrived); events (opens, clicks, unsubscribes, bounces, complaints) are recorded per
 * recipient.
 *
 * Wire names follow spec section 3 (`_id`, snake_case). Bad input is a 400 `{message, errors}` whose
 * keys are the fields below.
 */
import * as z from 'zod/mini';
import { idText, listQuery, page, text } from '@console/shared/contracts/core';

// ---------------------------------------------------------------------------------------------
// Vocabulary and limits
// ---------------------------------------------------------------------------------------------

/**
 * draft → scheduled → sending ⇄ paused → sent; a draft, scheduled, sending or paused campaign can be
 * cancelled; `failed` when the send could not go on (e.g. its template was deleted, the plan's
 * volume ran out: the reason is in `failure_reason`).
 */
export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'sending', 'paused', 'sent', 'cancelled', 'failed'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/**
 * Where a recipient's message is: queued, claimed by a sending process, being handed over, then what the
 * server answered; `unconfirmed` when the data was handed over and no answer was read (the sending
 * process stopped, or the connection dropped): it may not have arrived, and it is never sent again.
 */
export const RECIPIENT_STATUSES = [
  'queued',
  'sending',
  'handing',
  'delivered',
  'deferred',
  'bounced',
  'failed',
  'unconfirmed',
  'skipped',
] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

/** An e-mail address of the contact, or the inbox of its wallet at WALLET_MAIL_DOMAIN. */
export const RECIPIENT_CHANNELS = ['email', 'wallet'] as const;
export type RecipientChannel = (typeof RECIPIENT_CHANNELS)[number];

export const CAMPAIGN_EVENT_TYPES = [
  'sent',
  'delivered',
  'deferred',
  'bounced',
  'failed',
  'unconfirmed',
  'opened',
  'clicked',
  'unsubscribed',
  'complained',
] as const;
export type CampaignEventType = (typeof CAMPAIGN_EVENT_TYPES)[number];

export const CAMPAIGN_LIMITS = {
  name: 100,
  subject: 255,
  previewText: 255,
  fromName: 100,
  address: 254,
  /** Lists plus segments on one side (include or exclude). */
  audienceSources: 50,
  utmValue: 100,
  /** Addresses of one test send. */
  testRecipients: 5,
  /** How far ahead a campaign can be scheduled, in days. */
  scheduleAheadDays: 365,
} as const;

// ---------------------------------------------------------------------------------------------
// Campaigns
// ---------------------------------------------------------------------------------------------

export const AudienceSelection = z.object({
  include_lists: z._default(z.array(idText()).check(z.maxLength(CAMPAIGN_LIMITS.audienceSources)), []),
  include_segments: z._default(z.array(idText()).check(z.maxLength(CAMPAIGN_LIMITS.audienceSources)), []),
  exclude_lists: z._default(z.array(idText()).check(z.maxLength(CAMPAIGN_LIMITS.audienceSources)), []),
  exclude_segments: z._default(z.array(idText()).check(z.maxLength(CAMPAIGN_LIMITS.audienceSources)), []),
});
export type AudienceSelection = z.infer<typeof AudienceSelection>;

/** UTM parameters added to every link of the e-mail (absent values are not added). */
export const UtmParameters = z.object({
  source: z._default(text(CAMPAIGN_LIMITS.utmValue), ''),
  medium: z._default(text(CAMPAIGN_LIMITS.utmValue), ''),
  campaign: z._default(text(CAMPAIGN_LIMITS.utmValue), ''),
  term: z._default(text(CAMPAIGN_LIMITS.utmValue), ''),
  content: z._default(text(CAMPAIGN_LIMITS.utmValue), ''),
});
export type UtmParameters = z.infer<typeof UtmParameters>;

/** The figures of a campaign (rates use unique opens and clicks, never machine opens). */
export const CampaignStats = z.object({
  recipients: z.int(),
  sent: z.int(),
  delivered: z.int(),
  bounced: z.int(),
  failed: z.int(),
  /** Handed over without an answer (counted in `sent`): they may not have arrived. */
  unconfirmed: z.int(),
  opened: z.int(),
  clicked: z.int(),
  unsubscribed: z.int(),
  complained: z.int(),
  /** opened / delivered, 0..1 (0 before anything is delivered). */
  open_rate: z.number(),
  click_rate: z.number(),
});
export type CampaignStats = z.infer<typeof CampaignStats>;

/** A row of the E-mails grid. */
export const CampaignSummary = z.object({
  _id: z.string(),
  name: z.string(),
  subject: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  /** The audience in words ('Newsletter, Active holders − Bounced'), for the grid. */
  audience_label: z.string(),
  scheduled_at: z.nullable(z.string()),
  started_at: z.nullable(z.string()),
  finished_at: z.nullable(z.string()),
  stats: CampaignStats,
  failure_reason: z.nullable(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CampaignSummary = z.infer<typeof CampaignSummary>;

/** One campaign, whole: what compose opens. */
export const Campaign = z.extend(CampaignSummary, {
  preview_text: z.string(),
  template_id: z.nullable(z.string()),
  audience: AudienceSelection,
  from_name: z.string(),
  from_email: z.string(),
  reply_to: z.string(),
  track_opens: z.boolean(),
  track_clicks: z.boolean(),
  utm: UtmParameters,
  /** IANA time zone the schedule was chosen in (the instant is `scheduled_at`). */
  time_zone: z.string(),
  /** Bumped by every save; autosave sends the version it loaded. */
  version: z.int(),
});
export type Campaign = z.infer<typeof Campaign>;

export const CAMPAIGN_SORT_FIELDS = ['updated_at', 'created_at', 'name', 'scheduled_at'] as const;
export const CampaignListQuery = z.extend(listQuery(CAMPAIGN_SORT_FIELDS, 'updated_at'), {
  status: z.optional(z.enum(CAMPAIGN_STATUSES)),
});
export type CampaignListQuery = z.infer<typeof CampaignListQuery>;
export const CampaignPage = page(CampaignSummary);
export type CampaignPage = z.infer<typeof CampaignPage>;

const optionalAddress = () => z.optional(text(CAMPAIGN_LIMITS.address));

/** POST /v1/campaigns (a new draft) and PATCH /v1/campaigns/{id} (drafts and scheduled campaigns only). */
export const CampaignCreate = z.object({
  name: text(CAMPAIGN_LIMITS.name).check(z.trim(), z.minLength(1, 'Name the e-mail.')),
  template_id: z.optional(z.nullable(idText())),
});
export type CampaignCreate = z.infer<typeof CampaignCreate>;

export const CampaignUpdate = z.object({
  name: z.optional(text(CAMPAIGN_LIMITS.name).check(z.trim(), z.minLength(1, 'Name the e-mail.'))),
  subject: z.optional(text(CAMPAIGN_LIMITS.subject)),
  preview_text: z.optional(text(CAMPAIGN_LIMITS.previewText)),
  template_id: z.optional(z.nullable(idText())),
  audience: z.optional(AudienceSelection),
  from_name: z.optional(text(CAMPAIGN_LIMITS.fromName)),
  from_email: optionalAddress(),
  reply_to: optionalAddress(),
  track_opens: z.optional(z.boolean()),
  track_clicks: z.optional(z.boolean()),
  utm: z.optional(UtmParameters),
  /** The version compose loaded: a save on a stale version is a 409 (nothing is overwritten). */
  base_version: z.optional(z.int().check(z.minimum(1))),
});
export type CampaignUpdate = z.infer<typeof CampaignUpdate>;

/** POST /v1/campaigns/{id}/duplicate takes an optional new name ('Copy of …' otherwise). */
export const CampaignDuplicate = z.object({
  name: z.optional(text(CAMPAIGN_LIMITS.name).check(z.trim(), z.minLength(1, 'Name the e-mail.'))),
});

// ---------------------------------------------------------------------------------------------
// Audience count and review
// ---------------------------------------------------------------------------------------------

/**
 * POST /v1/campaigns/audience (a selection) or GET /v1/campaigns/{id}/audience: who the send would
 * reach, computed by the same query the send uses. `reachable` = `email` + `wallet`; the rest say why
 * people are left out (each contact counted once, under the first reason that applies in this order).
 */
export const AudienceCount = z.object({
  /** Contacts in the included lists and segments, each once. */
  matched: z.int(),
  reachable: z.int(),
  /** By e-mail address. */
  email: z.int(),
  /** Wallet-only contacts, to `<checksummed address>@<WALLET_MAIL_DOMAIN>` (0 without that setting). */
  wallet: z.int(),
  excluded: z.int(),
  unsubscribed: z.int(),
  bounced: z.int(),
  complained: z.int(),
  /** Wallet-only contacts without WALLET_MAIL_DOMAIN set. */
  no_address: z.int(),
  /** Contacts whose address another contact of the audience has (sent once). */
  duplicates: z.int(),
  /** The domain wallet-only contacts are sent to, or null when not set. */
  wallet_mail_domain: z.nullable(z.string()),
});
export type AudienceCount = z.infer<typeof AudienceCount>;

// ---------------------------------------------------------------------------------------------
// Sending, scheduling, test sends
// ---------------------------------------------------------------------------------------------

/**
 * POST /v1/campaigns/{id}/send: now (no `scheduled_at`) or at `scheduled_at` (an instant; `time_zone`
 * is the zone it was chosen in, kept for display). Refused with 400 when the campaign is incomplete
 * (no subject, template or audience) and with 402 when it would exceed the plan's remaining e-mail
 * volume, saying by how many.
 */
export const CampaignSend = z.object({
  scheduled_at: z.optional(z.nullable(text(40))),
  time_zone: z.optional(text(64)),
});
export type CampaignSend = z.infer<typeof CampaignSend>;

/** POST /v1/campaigns/{id}/test: the campaign as it stands, to up to 5 addresses, as a contact or sample values. */
export const CampaignTestSend = z.object({
  to: z.array(text(CAMPAIGN_LIMITS.address)).check(z.minLength(1), z.maxLength(CAMPAIGN_LIMITS.testRecipients)),
  contact_id: z.optional(z.nullable(idText())),
});
export type CampaignTestSend = z.infer<typeof CampaignTestSend>;

/** POST /v1/campaigns/{id}/preview: the campaign rendered as a contact (or sample values). */
export const CampaignPreviewRequest = z.object({ contact_id: z.optional(z.nullable(idText())) });
/**
 * GET /v1/campaigns/senders: the From addresses compose offers: the platform's address, or any address on
 * one of the community's verified sending domains (Custom Domains).
 */
export const CampaignSenders = z.object({ platform_address: z.string(), domains: z.array(z.string()) });
export type CampaignSenders = z.infer<typeof CampaignSenders>;

export const CampaignPreview = z.object({
  subject: z.string(),
  preview_text: z.string(),
  html: z.string(),
  text: z.string(),
});
export type CampaignPreview = z.infer<typeof CampaignPreview>;

// ---------------------------------------------------------------------------------------------
// Delivery log (spec: "the same delivery log view" for campaigns, automations, transactional)
// ---------------------------------------------------------------------------------------------

/** GET /v1/campaigns/{id}/log/timeline: counts per bucket of time, for the chart. */
export const DeliveryBucket = z.object({
  at: z.string(),
  sent: z.int(),
  delivered: z.int(),
  opened: z.int(),
  clicked: z.int(),
  bounced: z.int(),
  complained: z.int(),
  unsubscribed: z.int(),
});
export const DeliveryTimeline = z.object({
  /** Bucket width in seconds (chosen so the chart has at most 200 points). */
  bucket_seconds: z.int(),
  buckets: z.array(DeliveryBucket),
});
export type DeliveryTimeline = z.infer<typeof DeliveryTimeline>;

/** A row of the per-recipient grid. */
export const DeliveryRecipient = z.object({
  _id: z.string(),
  contact_id: z.nullable(z.string()),
  address: z.string(),
  channel: z.enum(RECIPIENT_CHANNELS),
  status: z.enum(RECIPIENT_STATUSES),
  attempts: z.int(),
  sent_at: z.nullable(z.string()),
  opened_at: z.nullable(z.string()),
  clicked_at: z.nullable(z.string()),
  unsubscribed_at: z.nullable(z.string()),
  error: z.nullable(z.string()),
  /** Soft bounces reported for the message (delays, temporary failures): counted, the contact unchanged. */
  soft_bounces: z.int(),
});
export type DeliveryRecipient = z.infer<typeof DeliveryRecipient>;

export const DELIVERY_SORT_FIELDS = ['address', 'sent_at'] as const;
export const DeliveryRecipientQuery = z.extend(listQuery(DELIVERY_SORT_FIELDS, 'address'), {
  status: z.optional(z.enum(RECIPIENT_STATUSES)),
  /** Recipients with at least one event of this type. */
  event: z.optional(z.enum(CAMPAIGN_EVENT_TYPES)),
});
export type DeliveryRecipientQuery = z.infer<typeof DeliveryRecipientQuery>;
/**
 * A page of the grid. `count` is exact unless `count_capped` is true: a filter the campaign's figures
 * do not hold is counted up to 10,000 rows past the page (then the grid says "more than").
 */
export const DeliveryRecipientPage = z.extend(page(DeliveryRecipient), { count_capped: z.optional(z.boolean()) });
export type DeliveryRecipientPage = z.infer<typeof DeliveryRecipientPage>;

/** GET /v1/campaigns/{id}/log/recipients/{rid}/events: one recipient's timeline, oldest first. */
export const DeliveryEvent = z.object({
  type: z.enum(CAMPAIGN_EVENT_TYPES),
  at: z.string(),
  /** Opens recognised as machine opens (mail privacy proxies, link scanners): recorded, not counted in rates. */
  machine: z.boolean(),
  /** The link clicked, or the server's answer of a bounce or deferral. */
  detail: z.nullable(z.string()),
});
export const DeliveryEventList = z.object({ records: z.array(DeliveryEvent) });
export type DeliveryEventList = z.infer<typeof DeliveryEventList>;

/** GET /v1/campaigns/{id}/log/links: each link of the e-mail with its clicks. */
export const DeliveryLink = z.object({ url: z.string(), clicks: z.int(), unique_clicks: z.int() });
export const DeliveryLinkList = z.object({ records: z.array(DeliveryLink) });
export type DeliveryLinkList = z.infer<typeof DeliveryLinkList>;

// ---------------------------------------------------------------------------------------------
// Events in: the mail provider's bounce and complaint webhook
// ---------------------------------------------------------------------------------------------

/**
 * POST /v1/mail-events, signed with HMAC-SHA256 of the raw body under MAIL_EVENTS_SECRET in the
 * header `X-Signature: sha256=<hex>`. `recipient_id` is the value of the `X-Recipient-Id` header of
 * the sent message; `message_id` may be given instead.
 */
export const MailEventIn = z.object({
  type: z.enum(['bounce', 'complaint'] as const),
  recipient_id: z.optional(text(200)),
  message_id: z.optional(text(500)),
  /** hard (default) or soft; a soft bounce is recorded and does not change the contact. */
  bounce_type: z.optional(z.enum(['hard', 'soft'] as const)),
  detail: z.optional(text(1000)),
  at: z.optional(text(40)),
});
export const MailEventsIn = z.object({ events: z.array(MailEventIn).check(z.minLength(1), z.maxLength(1000)) });
export type MailEventsIn = z.infer<typeof MailEventsIn>;

// ---------------------------------------------------------------------------------------------
// Plan usage (spec section 3: the tenant's last_warning_sent_date, last_limit_sent_date)
// ---------------------------------------------------------------------------------------------

/** GET /v1/usage: e-mails sent in the current billing period against the plan's e-mail volume. */
export const EmailUsage = z.object({
  period_start: z.string(),
  period_end: z.string(),
  sent: z.int(),
  /** Reserved by campaigns sending now (their unsent recipients). */
  reserved: z.int(),
  limit: z.int(),
  /** Warned at 80 %; stopped at 100 %. */
  warning_at: z.int(),
});
export type EmailUsage = z.infer<typeof EmailUsage>;
