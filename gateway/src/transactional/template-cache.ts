/**
 * What a transactional send needs of its template (the row: tenant, name, current version; its
 * settings; the merge variables of that version), kept in memory per process so that a send reads no
 * template (docs/transactional.md, "What a request costs"), and dropped the moment it changes, the way
 * the session and community caches are (auth/session-cache.ts):
 *
 * - triggers on templates and transactional_settings (migration 0037) NOTIFY `console_transactional`
 *   with `tenant:<id>` (or `all`) when such a row changes, a cascade included; every gateway process
 *   LISTENs on its database and drops the tenant's entries;
 * - the process that writes also drops them after its commit (`transactionalTemplatesChanged`: the
 *   templates area's saves and deletes, the settings route), so its own next send sees the change
 *   without waiting for the notification;
 * - while the listener is not confirmed (starting, connection lost), nothing is kept: every send reads
 *   the template; a read that raced a change is not kept; entries live at most a minute.
 *
 * Only found templates are kept: an unknown id (404) is read every time.
 */
import { sql } from 'drizzle-orm';
import { notifiedCache } from '../auth/index';
import type { TransactionalSettings } from '../contracts';
import type { Database } from '../db/index';
import { intOf, queryRows, textOf, type Queryable } from '../lib/raw-sql';
import { DEFAULT_SETTINGS } from './settings';
import { onTemplatesChanged, variablesUsed } from '../templates/index';
import { callerVariables } from './variables';

export const TRANSACTIONAL_CHANNEL = 'console_transactional';

/** A transactional template as a send checks it. */
export interface TemplateFacts {
  id: string;
  tenantId: string;
  name: string;
  version: number;
  variables: string[];
  settings: TransactionalSettings;
}

/** Variables per template version (a version never changes). */
const variablesByVersion = new Map<string, string[]>();
const VERSIONS_KEPT = 1_000;

/** The merge variables a caller gives for a version of a template (parsed once per version). */
export async function variablesOfVersion(db: Queryable, id: string, version: number): Promise<string[]> {
  const key = `${id}:${version}`;
  let variables = variablesByVersion.get(key);
  if (!variables) {
    const [v] = await queryRows(
      db,
      sql`select subject, preview_text, mjml from template_versions where template_id = ${id}::uuid and version = ${version}`,
    );
    variables = callerVariables(
      variablesUsed({
        subject: textOf(v ?? {}, 'subject') ?? '',
        preview_text: textOf(v ?? {}, 'preview_text') ?? '',
        mjml: textOf(v ?? {}, 'mjml') ?? '',
      }),
    );
    if (variablesByVersion.size >= VERSIONS_KEPT) variablesByVersion.clear();
    variablesByVersion.set(key, variables);
  }
  return variables;
}

const caches = notifiedCache<TemplateFacts>(TRANSACTIONAL_CHANNEL, (db, cache) =>
  onTemplatesChanged(db, (tenantId) => cache.invalidate(`tenant:${tenantId}`)),
);
const entryOf = caches.of;

/** Subscribes at start (the gateway's onReady), so the first sends are already kept. */
export function startTemplateCache(db: Database): Promise<void> {
  return entryOf(db).started;
}

/** After a committed change to a tenant's templates or their settings: applied to this process at once. */
export function transactionalTemplatesChanged(db: Database, tenantId: string): void {
  caches.existing(db)?.cache.invalidate(`tenant:${tenantId}`);
}

/** The template `id` if it is one of the tenant's transactional templates (null otherwise), from memory or read. */
export async function templateFacts(db: Database, tenantId: string, id: string): Promise<TemplateFacts | null> {
  const facts = await entryOf(db).cache.load(id, async () => {
    const [row] = await queryRows(
      db,
      sql`select t.id::text, t.tenant_id::text, t.name, t.version,
                 s.send_to_unsubscribed, s.track_opens, s.track_clicks
            from templates t left join transactional_settings s on s.template_id = t.id
           where t.id = ${id}::uuid and t.kind = 'transactional' and t.tenant_id is not null`,
    );
    if (!row) return null;
    const version = intOf(row, 'version');
    const owner = textOf(row, 'tenant_id') ?? '';
    const settings: TransactionalSettings =
      row.send_to_unsubscribed === null || row.send_to_unsubscribed === undefined
        ? DEFAULT_SETTINGS
        : {
            send_to_unsubscribed: row.send_to_unsubscribed === true,
            track_opens: row.track_opens === true,
            track_clicks: row.track_clicks === true,
          };
    const value: TemplateFacts = {
      id: textOf(row, 'id') ?? id,
      tenantId: owner,
      name: textOf(row, 'name') ?? '',
      version,
      variables: await variablesOfVersion(db, id, version),
      settings,
    };
    return { value, tenantId: owner };
  });
  // Another tenant's template is as unknown as a missing one.
  return facts && facts.tenantId === tenantId ? facts : null;
}
