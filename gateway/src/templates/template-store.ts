/**
 * Templates of one tenant as stored: reading, the grid query, versions and delete. Every query is
 * scoped by the tenant; another tenant's id (or a malformed one) is simply not found.
 */
import { templatesChanged } from './template-changes';
import { and, asc, count, desc, eq, ilike, ne, notInArray, sql, type SQL } from 'drizzle-orm';
import {
  TEMPLATE_LIMITS,
  type Template,
  type TemplateListQuery,
  type TemplatePage,
  type TemplateSummary,
  type TemplateUsage,
  type TemplateVersion,
} from '../contracts';
import type { Database } from '../db/index';
import { templates, templateVersions, users, type TemplateRow, type TemplateVersionRow } from '../db/schema';
import { conflict, notFound } from '../errors';
import { isUuid } from '../lib/db-helpers';
import { likePattern, paginate, pageWindow } from '../lib/pagination';
import { deleteRefusal, inUseMessage, templateUsage, UNUSED } from './template-usage';

export const TEMPLATE_NOT_FOUND = 'Template not found.';
export const VERSION_NOT_FOUND = 'This version is no longer kept.';

type Executor = Pick<Database, 'select' | 'insert' | 'update' | 'delete'>;

/** An editor's display name: first and last name, else the e-mail. */
const editorName = sql<string>`coalesce(nullif(trim(${users.firstName} || ' ' || ${users.lastName}), ''), ${users.email})`;

interface Editor {
  editorId: string | null;
  editorName: string | null;
}

export function toSummary(row: TemplateRow, editor: Editor, usage: TemplateUsage): TemplateSummary {
  return {
    _id: row.id,
    name: row.name,
    kind: row.kind,
    subject: row.subject,
    preview_text: row.previewText,
    version: row.version,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    updated_by: editor.editorId ? { _id: editor.editorId, name: editor.editorName ?? '' } : null,
    used_by: usage,
  };
}

export function toTemplate(
  row: TemplateRow,
  version: Pick<TemplateVersionRow, 'mjml' | 'project'>,
  editor: Editor,
  usage: TemplateUsage,
): Template {
  return { ...toSummary(row, editor, usage), mjml: version.mjml, project: version.project };
}

function scoped(id: string, tenantId: string): SQL | undefined {
  return and(eq(templates.id, id), eq(templates.tenantId, tenantId));
}

/** The template row with its last editor, or 404. */
export async function templateRow(db: Database, tenantId: string, id: string): Promise<TemplateRow & Editor> {
  const [row] = isUuid(id)
    ? await db
        .select({ template: templates, editorId: users.id, editorName })
        .from(templates)
        .leftJoin(users, eq(users.id, templates.updatedBy))
        .where(scoped(id, tenantId))
    : [];
  if (!row) throw notFound(TEMPLATE_NOT_FOUND);
  return { ...row.template, editorId: row.editorId, editorName: row.editorName };
}

/** One stored version of a template (already known to be the tenant's), or 404. */
export async function versionRow(db: Executor, templateId: string, version: number): Promise<TemplateVersionRow> {
  const [row] = await db
    .select()
    .from(templateVersions)
    .where(and(eq(templateVersions.templateId, templateId), eq(templateVersions.version, version)));
  if (!row) throw notFound(VERSION_NOT_FOUND);
  return row;
}

/** GET /v1/templates/{id}: the template with its current version's MJML and project data. */
export async function getTemplate(db: Database, tenantId: string, id: string): Promise<Template> {
  const row = await templateRow(db, tenantId, id);
  const version = await versionRow(db, row.id, row.version);
  const usage = (await templateUsage(db, tenantId, [row.id])).get(row.id) ?? UNUSED;
  return toTemplate(row, version, row, usage);
}

const SORT: Record<TemplateListQuery['sortField'], SQL> = {
  updated_at: sql`${templates.updatedAt}`,
  created_at: sql`${templates.createdAt}`,
  name: sql`lower(${templates.name})`,
};

/** GET /v1/templates: search on the name (anywhere in it), kind filter, sorted, paged. */
export async function listTemplates(db: Database, tenantId: string, q: TemplateListQuery): Promise<TemplatePage> {
  const conditions: SQL[] = [eq(templates.tenantId, tenantId)];
  const search = q.searchString.trim();
  if (search) conditions.push(ilike(templates.name, likePattern(search)));
  if (q.kind) conditions.push(eq(templates.kind, q.kind));
  const where = and(...conditions);
  const direction = q.sortOrder === 'asc' ? asc : desc;
  const { offset, limit } = pageWindow(q.page, q.perPage);
  const [[total], rows] = await Promise.all([
    db.select({ n: count() }).from(templates).where(where),
    db
      .select({ template: templates, editorId: users.id, editorName })
      .from(templates)
      .leftJoin(users, eq(users.id, templates.updatedBy))
      .where(where)
      .orderBy(direction(SORT[q.sortField]), direction(templates.id))
      .limit(limit)
      .offset(offset),
  ]);
  const usage = await templateUsage(
    db,
    tenantId,
    rows.map((r) => r.template.id),
  );
  return {
    records: rows.map((r) => toSummary(r.template, r, usage.get(r.template.id) ?? UNUSED)),
    pagination: paginate(q.page, q.perPage, total?.n ?? 0),
  };
}

/** GET /v1/templates/{id}/versions: the kept versions, newest first. */
export async function listVersions(db: Database, tenantId: string, id: string): Promise<TemplateVersion[]> {
  const row = await templateRow(db, tenantId, id);
  const rows = await db
    .select({
      version: templateVersions.version,
      createdAt: templateVersions.createdAt,
      subject: templateVersions.subject,
      editorId: users.id,
      editorName,
    })
    .from(templateVersions)
    .leftJoin(users, eq(users.id, templateVersions.createdBy))
    .where(eq(templateVersions.templateId, row.id))
    .orderBy(desc(templateVersions.version))
    .limit(TEMPLATE_LIMITS.versionsKept + 1);
  return rows.map((v) => ({
    version: v.version,
    created_at: v.createdAt.toISOString(),
    created_by: v.editorId ? { _id: v.editorId, name: v.editorName } : null,
    subject: v.subject,
  }));
}

/**
 * Keeps the last TEMPLATE_LIMITS.versionsKept versions of a template, and its current one
 * whatever its number (a template whose later versions were all conflicting saves).
 */
export async function pruneVersions(db: Executor, templateId: string, current: number): Promise<void> {
  const newest = db
    .select({ version: templateVersions.version })
    .from(templateVersions)
    .where(eq(templateVersions.templateId, templateId))
    .orderBy(desc(templateVersions.version))
    .limit(TEMPLATE_LIMITS.versionsKept);
  await db
    .delete(templateVersions)
    .where(
      and(
        eq(templateVersions.templateId, templateId),
        ne(templateVersions.version, current),
        notInArray(templateVersions.version, newest),
      ),
    );
}

/** DELETE /v1/templates/{id}: refused (409, naming what) while a scheduled e-mail or an active automation uses it. */
export async function deleteTemplate(db: Database, tenantId: string, id: string): Promise<void> {
  const row = await templateRow(db, tenantId, id);
  const usage = (await templateUsage(db, tenantId, [row.id])).get(row.id) ?? UNUSED;
  const refused = inUseMessage(usage);
  if (refused) throw conflict(refused);
  await db.transaction(async (tx) => {
    // The row locked first: a send that would add a message to it waits for this transaction.
    await tx.execute(sql`select id from templates where id = ${row.id}::uuid for update`);
    const refusal = await deleteRefusal(tx, tenantId, row.id);
    if (refusal) throw conflict(refusal);
    await tx.delete(templates).where(scoped(row.id, tenantId));
  });
  templatesChanged(db, tenantId);
}
