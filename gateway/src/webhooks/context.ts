import type { WebhooksConfig } from '../config';
import type { Database } from '../db/index';
import type { JobRunner } from '../jobs/index';
import type { AddressPolicy } from './address-policy';
import type { EndpointPresence } from './presence';

/** What the webhooks' jobs and routes share (built once per composition root: index.ts). */
export interface WebhookContext {
  db: Database;
  jobs: JobRunner;
  config: WebhooksConfig;
  policy: AddressPolicy;
  presence: EndpointPresence;
  /** Turns a recipient row id into the opaque id its message carries (X-Recipient-Id). */
  recipientToken: (id: number) => string;
  clock: () => Date;
  log: { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
}

export const DELIVER_QUEUE = 'webhooks.deliver';
export const SWEEP_QUEUE = 'webhooks.sweep';
