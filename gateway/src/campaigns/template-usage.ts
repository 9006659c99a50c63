/**
 * What campaigns use of templates (the templates grid's "used by" and its delete rule): a template
 * used by a scheduled e-mail cannot be deleted until the e-mail is unscheduled or changed.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { TemplateUsage } from '../contracts';
import type { Database } from '../db/index';
import { campaigns } from '../db/schema';
import { validIds } from '../lib/db-helpers';

/** Names listed per template (the templates area shows at most a few). */
const NAMES_KEPT = 5;

export async function scheduledTemplateUsage(
  db: Database,
  tenantId: string,
  templateIds: readonly string[],
): Promise<Map<string, TemplateUsage>> {
  const out = new Map<string, TemplateUsage>();
  const ids = validIds(templateIds);
  if (ids.length === 0) return out;
  const rows = await db
    .select({ templateId: campaigns.templateId, name: campaigns.name })
    .from(campaigns)
    .where(and(eq(campaigns.tenantId, tenantId), eq(campaigns.status, 'scheduled'), inArray(campaigns.templateId, ids)))
    .orderBy(campaigns.scheduledAt, campaigns.id);
  for (const row of rows) {
    if (!row.templateId) continue;
    const usage = out.get(row.templateId) ?? { scheduled_emails: 0, active_automations: 0, names: [] };
    usage.scheduled_emails += 1;
    if (usage.names.length < NAMES_KEPT) usage.names.push(row.name);
    out.set(row.templateId, usage);
  }
  return out;
}
