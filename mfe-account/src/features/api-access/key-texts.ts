/** What the API Access page says about scopes, statuses and audit events (the spec has no wording for them). */
import type { ApiKey, ApiKeyEvent, ApiKeyScope, ApiKeyStatus } from '@console/shared/contracts';

export const SCOPE_CHOICES: ReadonlyArray<{ scope: ApiKeyScope; label: string; description: string }> = [
  {
    scope: 'full',
    label: 'Full access',
    description:
      'Everything your plan allows through the API, except managing users, API keys, webhooks, billing, settings and domains.',
  },
  { scope: 'sending', label: 'Sending only', description: 'Sends transactional e-mails and reads their status.' },
  { scope: 'contacts', label: 'Contacts', description: 'Reads and writes contacts and lists.' },
];

export const scopeLabel = (scope: ApiKeyScope) => SCOPE_CHOICES.find((c) => c.scope === scope)?.label ?? scope;

export const STATUS_LABELS: Record<ApiKeyStatus, string> = {
  active: 'Active',
  expired: 'Expired',
  revoked: 'Revoked',
};

export function eventText(event: ApiKeyEvent): string {
  const key = `${event.key.name} (${event.key.prefix}…)`;
  switch (event.kind) {
    case 'created':
      return `Created ${key}`;
    case 'first_used':
      return event.ip ? `${key} was used for the first time, from ${event.ip}` : `${key} was used for the first time`;
    case 'revoked':
      return `Revoked ${key}`;
    case 'expired':
      return `${key} expired`;
  }
}

export const keyLabel = (key: Pick<ApiKey, 'name' | 'prefix'>) => `${key.name} (${key.prefix}…)`;
