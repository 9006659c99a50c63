/**
 * What uses a template (the grid's "used by" and the delete rule: a template used by a scheduled
 * e-mail or an active automation cannot be deleted). The areas that use templates register a
 * source here (campaigns: scheduled e-mails; automations: active automations); until they exist
 * every template is unused and the count is zero.
 */
import type { TemplateUsage } from '../contracts';
import type { Database } from '../db/index';
import type { Queryable } from '../lib/raw-sql';

/** Usage of some templates of one tenant, by template id (ids it does not know are left out). */
export type TemplateUsageSource = (
  db: Database,
  tenantId: string,
  templateIds: readonly string[],
) => Promise<Map<string, TemplateUsage>>;

const sources = new Map<string, TemplateUsageSource>();

/** Adds (or replaces, by name) a source of usage: e.g. registerTemplateUsage('campaigns', …). */
export function registerTemplateUsage(name: string, source: TemplateUsageSource): void {
  sources.set(name, source);
}

/**
 * A rule of another area that may refuse a template's deletion (409 with its message), read inside the
 * deleting transaction after the template's row is locked: nothing it counts can be added meanwhile.
 * E.g. transactional e-mails: messages accepted and not yet sent.
 */
export type TemplateDeleteGuard = (tx: Queryable, tenantId: string, templateId: string) => Promise<string | null>;

const guards = new Map<string, TemplateDeleteGuard>();

/** Adds (or replaces, by name) a rule that may refuse a deletion. */
export function registerTemplateDeleteGuard(name: string, guard: TemplateDeleteGuard): void {
  guards.set(name, guard);
}

/** The first refusal of the registered rules, or null. */
export async function deleteRefusal(tx: Queryable, tenantId: string, templateId: string): Promise<string | null> {
  for (const guard of guards.values()) {
    const refused = await guard(tx, tenantId, templateId);
    if (refused) return refused;
  }
  return null;
}

export const UNUSED: TemplateUsage = { scheduled_emails: 0, active_automations: 0, names: [] };

/** Names listed in the delete dialog. */
const NAMES_SHOWN = 5;

/** The usage of each of `templateIds` (zero for none), summed over the registered sources. */
export async function templateUsage(
  db: Database,
  tenantId: string,
  templateIds: readonly string[],
): Promise<Map<string, TemplateUsage>> {
  const out = new Map<string, TemplateUsage>(templateIds.map((id) => [id, { ...UNUSED, names: [] }]));
  if (templateIds.length === 0) return out;
  for (const source of sources.values()) {
    for (const [id, usage] of await source(db, tenantId, templateIds)) {
      const sum = out.get(id);
      if (!sum) continue;
      sum.scheduled_emails += usage.scheduled_emails;
      sum.active_automations += usage.active_automations;
      sum.names = [...sum.names, ...usage.names].slice(0, NAMES_SHOWN);
    }
  }
  return out;
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The 409 message of a delete refused because the template is in use, or null when it is not. */
export function inUseMessage(usage: TemplateUsage): string | null {
  const parts: string[] = [];
  if (usage.scheduled_emails > 0) parts.push(count(usage.scheduled_emails, 'scheduled e-mail', 'scheduled e-mails'));
  if (usage.active_automations > 0) {
    parts.push(count(usage.active_automations, 'active automation', 'active automations'));
  }
  if (parts.length === 0) return null;
  const names = usage.names.length > 0 ? ` (${usage.names.join(', ')})` : '';
  return `This template is used by ${parts.join(' and ')}${names}. Unschedule or change them before deleting it.`;
}
