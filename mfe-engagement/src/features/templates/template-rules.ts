/** Pure rules of the templates screens: what uses a template, merge tags as Liquid, test-send addresses. */
import { TEMPLATE_LIMITS, type TemplateKind, type TemplateUsage } from '@console/shared/contracts';

export const KIND_LABELS: Record<TemplateKind, string> = {
  marketing: 'Marketing',
  transactional: 'Transactional',
};

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** 'Not used', or '2 scheduled e-mails, 1 active automation'. */
export function usageText(usage: TemplateUsage): string {
  const parts: string[] = [];
  if (usage.scheduled_emails > 0) parts.push(plural(usage.scheduled_emails, 'scheduled e-mail', 'scheduled e-mails'));
  if (usage.active_automations > 0)
    parts.push(plural(usage.active_automations, 'active automation', 'active automations'));
  return parts.length === 0 ? 'Not used' : parts.join(', ');
}

/** A template used by a scheduled e-mail or an active automation cannot be deleted (the rule; the server enforces it). */
export function isInUse(usage: TemplateUsage): boolean {
  return usage.scheduled_emails > 0 || usage.active_automations > 0;
}

/**
 * The Liquid a merge-tag menu inserts for a tag. Values that may be blank for a recipient (contact
 * fields and custom attributes, `contact.…`) come with an empty `default` filter for the author to
 * fill in (`{{ contact.first_name | default: "friend" }}`); community fields and links are always set
 * and go in bare.
 */
export function liquidFor(tag: string): string {
  return tag.startsWith('contact.') ? `{{ ${tag} | default: "" }}` : `{{ ${tag} }}`;
}

/** Insert `text` into `value` in place of the selection [start, end) (a text input's caret). */
export function insertAt(value: string, text: string, start: number | null, end: number | null) {
  const from = start ?? value.length;
  const to = end ?? from;
  return { value: value.slice(0, from) + text + value.slice(to), caret: from + text.length };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type RecipientsResult = { ok: true; recipients: string[] } | { ok: false; error: string };

/** Test-send addresses typed as a list (commas, semicolons, spaces or lines): 1 to 5 valid, distinct addresses. */
export function parseRecipients(input: string): RecipientsResult {
  const seen = new Set<string>();
  const recipients: string[] = [];
  for (const raw of input.split(/[\s,;]+/)) {
    const address = raw.trim();
    if (!address) continue;
    if (!EMAIL.test(address)) return { ok: false, error: `"${address}" is not a valid e-mail address.` };
    const key = address.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    recipients.push(address);
  }
  if (recipients.length === 0) return { ok: false, error: 'Add an address.' };
  if (recipients.length > TEMPLATE_LIMITS.testRecipients)
    return { ok: false, error: `Send a test to at most ${TEMPLATE_LIMITS.testRecipients} addresses.` };
  return { ok: true, recipients };
}
