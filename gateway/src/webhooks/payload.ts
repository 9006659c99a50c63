/**
 * The body of each webhook (docs/webhooks.md, "Payload"), after Resend's and Postmark's: the event's
 * type (`email.<event>`), when it happened, and the message it is about. Pure.
 *
 *     {"type":"email.bounced","timestamp":"2026-11-29T13:00:00.000Z",
 *      "data":{"message_id":"<…@…>","recipient_id":"k3x9…","campaign_id":"…",
 *              "transactional_message_id":null,"template_id":"…",
 *              "email":"reader@example.com","contact_id":"…","reason":"550 5.1.1 no such user"}}
 */
import type { WebhookEventType } from '../contracts';

/** What the payload says about the message an event is about (a campaign_recipients row). */
export interface MessageFacts {
  /** The opaque recipient id (the message's `X-Recipient-Id` header). */
  recipientId: string;
  /** The message's Message-ID header; null before it was built. */
  messageId: string | null;
  /** The campaign's id; null for a transactional message. */
  campaignId: string | null;
  /** The id `POST /v1/transactional/send` answered; null for a campaign's message. */
  transactionalId: string | null;
  templateId: string | null;
  email: string;
  contactId: string | null;
}

/** The payload's `type` of an event type. */
export function payloadType(type: WebhookEventType | 'test'): string {
  return type === 'test' ? 'webhook.test' : `email.${type}`;
}

/** The JSON body of one event; `detail` is the bounce's or complaint's reason, or the clicked URL. */
export function eventBody(type: WebhookEventType, at: Date, facts: MessageFacts, detail: string | null): string {
  const extra =
    type === 'clicked' ? { url: detail } : type === 'bounced' || type === 'complained' ? { reason: detail } : {};
  return JSON.stringify({
    type: payloadType(type),
    timestamp: at.toISOString(),
    data: {
      message_id: facts.messageId,
      recipient_id: facts.recipientId,
      campaign_id: facts.campaignId,
      transactional_message_id: facts.transactionalId,
      template_id: facts.templateId,
      email: facts.email,
      contact_id: facts.contactId,
      ...extra,
    },
  });
}

/** The body of the event `POST /v1/webhooks/endpoints/{id}/test` sends. */
export function testBody(endpointId: string, at: Date): string {
  return JSON.stringify({
    type: payloadType('test'),
    timestamp: at.toISOString(),
    data: { endpoint_id: endpointId, message: 'A test event from the community console.' },
  });
}
