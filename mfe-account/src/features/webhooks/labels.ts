import type { WebhookDeliveryState, WebhookEventType } from '@console/shared/contracts';

/** Each event type as the page names it, with what it means. */
export const EVENT_LABELS: Record<WebhookEventType, { label: string; hint: string }> = {
  sent: { label: 'Sent', hint: 'handed to the mail server' },
  delivered: { label: 'Delivered', hint: "accepted by the recipient's server" },
  opened: { label: 'Opened', hint: 'a person opened it' },
  clicked: { label: 'Clicked', hint: 'a person clicked a link' },
  bounced: { label: 'Bounced', hint: 'refused for good' },
  complained: { label: 'Complained', hint: 'marked as spam' },
  unsubscribed: { label: 'Unsubscribed', hint: 'the recipient unsubscribed' },
};

export const STATE_LABELS: Record<WebhookDeliveryState, string> = {
  pending: 'Pending',
  retrying: 'Retrying',
  delivered: 'Delivered',
  failed: 'Failed',
};
