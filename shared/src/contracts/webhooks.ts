/**
 * Outgoing webhooks (account/api-access/webhooks; permission api_access, plan feature api_access): the
 * tenant's endpoints, the delivery events they receive and the log of attempts. docs/webhooks.md has the
 * payload and the Standard Webhooks signature.
 */
import * as z from 'zod/mini';
import { page, text } from '@console/shared/contracts/core';

/** The delivery events of a message that an endpoint may receive, in the order the console lists them. */
export const WEBHOOK_EVENT_TYPES = [
  'sent',
  'delivered',
  'opened',
  'clicked',
  'bounced',
  'complained',
  'unsubscribed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The type of the event `POST /v1/webhooks/endpoints/{id}/test` sends. */
export const WEBHOOK_TEST_EVENT = 'test';

export const WEBHOOK_LIMITS = { url: 2000, description: 500 } as const;

export const WEBHOOK_MESSAGES = {
  url: 'Enter an https:// address.',
  events: 'Choose at least one event.',
  deleted: 'Endpoint deleted.',
} as const;

/** An endpoint's state: `disabled_reason` says why the gateway turned it off (null when a user did). */
export const WebhookEndpoint = z.object({
  _id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  enabled: z.boolean(),
  disabled_reason: z.nullable(z.string()),
  /** The last attempt of any delivery: when, and whether it was answered with a 2xx. */
  last_attempt_at: z.nullable(z.string()),
  last_attempt_ok: z.nullable(z.boolean()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const WebhookEndpointList = z.object({ records: z.array(WebhookEndpoint) });
export type WebhookEndpointList = z.infer<typeof WebhookEndpointList>;

/** The endpoint with its signing secret (`whsec_…`, Standard Webhooks). */
export const WebhookEndpointSecret = z.object({ secret: z.string() });
export type WebhookEndpointSecret = z.infer<typeof WebhookEndpointSecret>;

const fields = {
  url: text(WEBHOOK_LIMITS.url, WEBHOOK_MESSAGES.url).check(z.trim(), z.minLength(1, WEBHOOK_MESSAGES.url)),
  description: text(WEBHOOK_LIMITS.description).check(z.trim()),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).check(z.minLength(1, WEBHOOK_MESSAGES.events), z.maxLength(7)),
  enabled: z.boolean(),
};

export const WebhookEndpointBody = z.object({
  url: fields.url,
  description: z._default(fields.description, ''),
  events: fields.events,
  enabled: z._default(fields.enabled, true),
});
export type WebhookEndpointBody = z.input<typeof WebhookEndpointBody>;

export const WebhookEndpointUpdateBody = z.object({
  url: z.optional(fields.url),
  description: z.optional(fields.description),
  events: z.optional(fields.events),
  enabled: z.optional(fields.enabled),
});
export type WebhookEndpointUpdateBody = z.infer<typeof WebhookEndpointUpdateBody>;

/** delivered: a 2xx; retrying: the next attempt is at next_attempt_at; failed: no attempt left. */
export const WEBHOOK_DELIVERY_STATES = ['pending', 'retrying', 'delivered', 'failed'] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

/** One attempt to deliver one event to the endpoint, newest first. */
export const WebhookAttempt = z.object({
  _id: z.string(),
  /** The event's id: the `webhook-id` header, the same on every attempt of the event. */
  event_id: z.string(),
  type: z.string(),
  attempt: z.int(),
  /** The HTTP status answered; null when there was no answer (refused, timed out, address not allowed). */
  status_code: z.nullable(z.int()),
  response_ms: z.nullable(z.int()),
  error: z.nullable(z.string()),
  /** The start of the answer's body, at most 1 KB. */
  response_body: z.nullable(z.string()),
  at: z.string(),
  /** When this attempt failed and another follows. */
  next_attempt_at: z.nullable(z.string()),
  /** The delivery's state after this attempt. */
  state: z.enum(WEBHOOK_DELIVERY_STATES),
});
export type WebhookAttempt = z.infer<typeof WebhookAttempt>;

export const WebhookAttemptQuery = z.object({
  page: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(1_000_000)), 1),
  perPage: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 20),
});
export type WebhookAttemptQuery = z.infer<typeof WebhookAttemptQuery>;

export const WebhookAttemptPage = page(WebhookAttempt);
export type WebhookAttemptPage = z.infer<typeof WebhookAttemptPage>;

/** What the test route answers: the attempt it made. */
export const WebhookTestResult = z.object({ attempt: WebhookAttempt });
export type WebhookTestResult = z.infer<typeof WebhookTestResult>;
