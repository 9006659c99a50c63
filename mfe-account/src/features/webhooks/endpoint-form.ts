import { WEBHOOK_EVENT_TYPES, WEBHOOK_MESSAGES, type WebhookEventType } from '@console/shared/contracts';

export interface EndpointFormValues {
  url: string;
  description: string;
  events: WebhookEventType[];
}

export type EndpointFormErrors = Partial<Record<'url' | 'events' | 'description', string>>;

/** What the form checks before sending (the gateway checks the address's host again): pure. */
export function endpointFormErrors(values: EndpointFormValues): EndpointFormErrors {
  const errors: EndpointFormErrors = {};
  const url = values.url.trim();
  if (!/^https?:\/\/[^\s/]+/i.test(url)) errors.url = WEBHOOK_MESSAGES.url;
  if (values.events.length === 0) errors.events = WEBHOOK_MESSAGES.events;
  return errors;
}

/** The chosen events in the contract's order. */
export function orderedEvents(events: readonly WebhookEventType[]): WebhookEventType[] {
  return WEBHOOK_EVENT_TYPES.filter((type) => events.includes(type));
}
