/**
 * Transactional e-mails (spec section 2: engagement/transactional-emails): the send API, a message's
 * status and events, the templates' grid with their settings, and the platform admins' overview.
 */
import * as z from 'zod/mini';
import { idText, listQuery, page, text } from '@console/shared/contracts/core';
import { CampaignStats, DeliveryEvent, RECIPIENT_STATUSES } from './campaigns';

export const TRANSACTIONAL_LIMITS = {
  /** Messages in one batch call. */
  batch: 100,
  /** The JSON text of one message's `data`, in characters. */
  dataChars: 16_384,
  /** An Idempotency-Key header, in characters. */
  idempotencyKey: 255,
  address: 320,
} as const;

/** One message of POST /v1/transactional/send (and of a batch). */
export const TransactionalMessage = z.object({
  template_id: idText(),
  to: text(TRANSACTIONAL_LIMITS.address).check(
    z.trim(),
    z.minLength(1, 'Give the recipient: an e-mail or wallet address.'),
  ),
  data: z._default(z.record(z.string(), z.unknown()), {}),
  from: z.optional(text(TRANSACTIONAL_LIMITS.address)),
  reply_to: z.optional(text(TRANSACTIONAL_LIMITS.address)),
  /** Not accepted (a 400 says so): send a link to the file instead. */
  attachments: z.optional(z.unknown()),
});
export type TransactionalMessage = z.infer<typeof TransactionalMessage>;

export const TransactionalSent = z.object({ message_id: z.string() });
export type TransactionalSent = z.infer<typeof TransactionalSent>;

export const TransactionalBatch = z.object({
  messages: z
    .array(TransactionalMessage)
    .check(
      z.minLength(1, 'Give at least one message.'),
      z.maxLength(TRANSACTIONAL_LIMITS.batch, `Send at most ${TRANSACTIONAL_LIMITS.batch} messages in one batch.`),
    ),
});
export type TransactionalBatch = z.infer<typeof TransactionalBatch>;

/** Each message of a batch, in order: its id, or why it was refused (the API's error body). */
export const TransactionalBatchResult = z.object({
  results: z.array(
    z.object({
      message_id: z.optional(z.string()),
      status: z.int(),
      error: z.optional(
        z.object({ message: z.string(), errors: z.optional(z.record(z.string(), z.array(z.string()))) }),
      ),
    }),
  ),
});
export type TransactionalBatchResult = z.infer<typeof TransactionalBatchResult>;

/** GET /v1/transactional/messages/{id}. */
export const TransactionalMessageStatus = z.object({
  message_id: z.string(),
  template_id: z.string(),
  to: z.string(),
  status: z.enum(RECIPIENT_STATUSES),
  error: z.nullable(z.string()),
  created_at: z.string(),
  events: z.array(DeliveryEvent),
});
export type TransactionalMessageStatus = z.infer<typeof TransactionalMessageStatus>;

/** A transactional template's settings. */
export const TransactionalSettings = z.object({
  send_to_unsubscribed: z.boolean(),
  track_opens: z.boolean(),
  track_clicks: z.boolean(),
});
export type TransactionalSettings = z.infer<typeof TransactionalSettings>;

export const TRANSACTIONAL_SORT_FIELDS = ['name', 'updated_at', 'last_sent_at'] as const;
export const TransactionalTemplateQuery = listQuery(TRANSACTIONAL_SORT_FIELDS, 'updated_at');
export type TransactionalTemplateQuery = z.infer<typeof TransactionalTemplateQuery>;

export const TransactionalTemplate = z.object({
  _id: z.string(),
  name: z.string(),
  sent_30_days: z.int(),
  /** Delivered and bounced over messages sent (all time, from the carriers' counters); null before any. */
  delivery_rate: z.nullable(z.number()),
  bounce_rate: z.nullable(z.number()),
  last_sent_at: z.nullable(z.string()),
  updated_at: z.string(),
});
export type TransactionalTemplate = z.infer<typeof TransactionalTemplate>;
export const TransactionalTemplatePage = page(TransactionalTemplate);
export type TransactionalTemplatePage = z.infer<typeof TransactionalTemplatePage>;

/**
 * GET /v1/transactional/templates/{id}: a template with the merge variables a message must give (for the
 * snippets), its settings and its figures (all its messages: the delivery log's summary).
 */
export const TransactionalTemplateDetail = z.object({
  _id: z.string(),
  name: z.string(),
  variables: z.array(z.string()),
  settings: TransactionalSettings,
  stats: CampaignStats,
});
export type TransactionalTemplateDetail = z.infer<typeof TransactionalTemplateDetail>;

/** GET /v1/admin/transactional: volume and failures per tenant over the last 30 days, most failing first. */
export const TransactionalAdminOverview = z.object({
  records: z.array(
    z.object({
      tenant_id: z.string(),
      tenant_name: z.string(),
      sent_30_days: z.int(),
      failed: z.int(),
      bounced: z.int(),
    }),
  ),
});
export type TransactionalAdminOverview = z.infer<typeof TransactionalAdminOverview>;
