/**
 * Writing templates: create (blank or from a starter), rename, designer saves, duplicate, restore.
 *
 * Every save that changes the content (MJML, project data, subject, preview text) is a new version.
 * The content is checked and compiled before anything is written, so a refused save (400) leaves
 * the last saved version as it was. A save whose `base_version` is no longer the current version
 * (another save came in between) is kept as a version of its own that does not become current,
 * and answered 409 with both numbers: nothing is lost and nothing is overwritten unseen.
 */
import { templatesChanged } from './template-changes';
import { and, eq, sql } from 'drizzle-orm';
import {
  TEMPLATE_LIMITS,
  UNSTORABLE_TEXT_MESSAGE,
  text,
  type Template,
  type TemplateConflict,
  type TemplateCreate,
  type TemplateKind,
  type TemplateSaved,
  type TemplateUpdate,
} from '../contracts';
import type { Database } from '../db/index';
import { templates, templateVersions, type TemplateRow, type TemplateVersionRow } from '../db/schema';
import { badRequest, INVALID_INPUT, notFound, type FieldErrors } from '../errors';
import { isUuid } from '../lib/db-helpers';
import { loadMergeContext } from './merge-context';
import { knownMergeTags, mergeTagWarnings } from './merge-tags';
import { galleryContent } from './gallery';
import { compiledWith, TemplateInputError, type CompiledContent } from './render/compile';
import { compileContent } from './render/compile-task';
import { compiledVersion, type TemplatesContext } from './template-cache';
import { blankDesign, STARTERS } from './starters/index';
import { pruneVersions, TEMPLATE_NOT_FOUND, templateRow, toTemplate, versionRow } from './template-store';
import { templateUsage, UNUSED } from './template-usage';

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

/** A version's content as saved. */
interface Content {
  subject: string;
  preview_text: string;
  mjml: string;
  project: Record<string, unknown> | null;
}

export type SaveOutcome = { kind: 'saved'; saved: TemplateSaved } | { kind: 'conflict'; body: TemplateConflict };

const storable = text(Number.MAX_SAFE_INTEGER);

/** The designer's project data: at most 5 MB as JSON, and only text PostgreSQL can store (no NUL). */
export function projectErrors(project: Record<string, unknown> | null): FieldErrors {
  if (project === null) return {};
  const json = JSON.stringify(project);
  if (Buffer.byteLength(json, 'utf8') > TEMPLATE_LIMITS.projectBytes) {
    return { project: ['The designer data is over 5 MB: remove unused pages or components.'] };
  }
  const pending: unknown[] = [project];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (!storable.safeParse(value).success) return { project: [UNSTORABLE_TEXT_MESSAGE] };
    } else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (!storable.safeParse(key).success) return { project: [UNSTORABLE_TEXT_MESSAGE] };
        pending.push(inner);
      }
    }
  }
  return {};
}

/** Checks and compiles content: a 400 with field errors, nothing written, when it is bad. */
async function compileChecked(ctx: TemplatesContext, content: Content): Promise<CompiledContent> {
  const errors = projectErrors(content.project);
  try {
    const compiled = await compileContent(content, ctx);
    if (Object.keys(errors).length > 0) throw badRequest(INVALID_INPUT, errors);
    return compiled;
  } catch (error) {
    if (error instanceof TemplateInputError) throw badRequest(INVALID_INPUT, { ...error.errors, ...errors });
    throw error;
  }
}

/** The answer to a save: the template as it now is, and the warnings of its current content. */
async function savedAnswer(ctx: TemplatesContext, tenantId: string, id: string): Promise<TemplateSaved> {
  const row = await templateRow(ctx.db, tenantId, id);
  const version = await versionRow(ctx.db, row.id, row.version);
  const usage = (await templateUsage(ctx.db, tenantId, [row.id])).get(row.id) ?? UNUSED;
  const merge = await loadMergeContext(ctx.db, tenantId, ctx.publicUrl);
  const warnings = mergeTagWarnings(
    { subject: version.subject, preview_text: version.previewText, mjml: version.mjml },
    knownMergeTags(merge.attributes),
    { kind: row.kind, hasPostalAddress: merge.community.postal_address !== null },
  );
  return { template: toTemplate(row, version, row, usage), warnings };
}

async function insertVersion(
  tx: Tx,
  templateId: string,
  version: number,
  content: Content,
  compiled: CompiledContent,
  key: string,
  userId: string | null,
): Promise<void> {
  await tx.insert(templateVersions).values({
    templateId,
    version,
    subject: content.subject,
    previewText: content.preview_text,
    mjml: content.mjml,
    project: content.project,
    html: compiled.html,
    text: compiled.text,
    compiledWith: key,
    createdBy: userId,
  });
}

/** A new template whose version 1 is `content`. */
async function insertTemplate(
  ctx: TemplatesContext,
  tenantId: string,
  userId: string | null,
  head: { name: string; kind: TemplateKind },
  content: Content,
  compiled: CompiledContent,
  key: string,
): Promise<string> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(templates)
      .values({
        tenantId,
        name: head.name,
        kind: head.kind,
        subject: content.subject,
        previewText: content.preview_text,
        updatedBy: userId,
      })
      .returning({ id: templates.id });
    if (!row) throw new Error('template was not stored');
    await insertVersion(tx, row.id, 1, content, compiled, key, userId);
    return row.id;
  });
}

/** POST /v1/templates: blank (with the footer when marketing), from a starter, or from a gallery design. */
export async function createTemplate(
  ctx: TemplatesContext,
  tenantId: string,
  userId: string | null,
  input: TemplateCreate,
): Promise<Template> {
  let head: { name: string; kind: TemplateKind } = input;
  let content: Content;
  if (input.gallery_id) {
    // A platform design from the gallery: a copy of its current content, of its kind.
    const gallery = await galleryContent(ctx.db, input.gallery_id);
    content = gallery.content;
    head = { name: input.name, kind: gallery.kind };
  } else {
    const design = input.starter ? STARTERS[input.starter].design(ctx) : blankDesign(ctx, input.kind);
    content = { ...design, project: null };
  }
  const compiled = await compileChecked(ctx, content);
  const id = await insertTemplate(ctx, tenantId, userId, head, content, compiled, compiledWith(ctx));
  return (await savedAnswer(ctx, tenantId, id)).template;
}

function contentOf(version: TemplateVersionRow): Content {
  return { subject: version.subject, preview_text: version.previewText, mjml: version.mjml, project: version.project };
}

function sameContent(a: Content, b: Content): boolean {
  return (
    a.subject === b.subject &&
    a.preview_text === b.preview_text &&
    a.mjml === b.mjml &&
    JSON.stringify(a.project) === JSON.stringify(b.project)
  );
}

/** The next version: stored, made current unless `current` is false, older ones pruned. */
async function addVersion(
  tx: Tx,
  row: TemplateRow,
  content: Content,
  compiled: CompiledContent,
  key: string,
  userId: string | null,
  current: boolean,
): Promise<number> {
  const version = row.lastVersion + 1;
  await insertVersion(tx, row.id, version, content, compiled, key, userId);
  await tx
    .update(templates)
    .set({
      lastVersion: version,
      ...(current && {
        version,
        subject: content.subject,
        previewText: content.preview_text,
        updatedAt: sql`now()`,
        updatedBy: userId,
      }),
    })
    .where(eq(templates.id, row.id));
  await pruneVersions(tx, row.id, current ? version : row.version);
  return version;
}

async function lockedRow(tx: Tx, tenantId: string, id: string): Promise<TemplateRow> {
  const [row] = await tx
    .select()
    .from(templates)
    .where(and(eq(templates.id, id), eq(templates.tenantId, tenantId)))
    .for('update');
  if (!row) throw notFound(TEMPLATE_NOT_FOUND);
  return row;
}

const CONFLICT_MESSAGE = (current: number, kept: number) =>
  `Someone else saved this template meanwhile (version ${current}). Your changes are kept as version ${kept}: restore it from the versions to go on with them.`;

/** Saves read the current version, compile, then write under a lock; a save in between makes them start again. */
const SAVE_ATTEMPTS = 3;

/** PATCH /v1/templates/{id}: rename, change the kind, or a designer save (a new version). */
export async function updateTemplate(
  ctx: TemplatesContext,
  tenantId: string,
  userId: string | null,
  id: string,
  input: TemplateUpdate,
): Promise<SaveOutcome> {
  if (!isUuid(id)) throw notFound(TEMPLATE_NOT_FOUND);
  const head = {
    ...(input.name !== undefined && { name: input.name }),
    ...(input.kind !== undefined && { kind: input.kind }),
  };
  for (let attempt = 1; ; attempt++) {
    const read = await templateRow(ctx.db, tenantId, id);
    const current = await versionRow(ctx.db, read.id, read.version);
    const before = contentOf(current);
    const content: Content = {
      subject: input.subject ?? before.subject,
      preview_text: input.preview_text ?? before.preview_text,
      mjml: input.mjml ?? before.mjml,
      project: input.project !== undefined ? input.project : before.project,
    };
    const changed = !sameContent(content, before);
    const compiled = changed ? await compileChecked(ctx, content) : null;
    const key = compiledWith(ctx);
    const outcome = await ctx.db.transaction(async (tx): Promise<SaveOutcome | 'again'> => {
      const row = await lockedRow(tx, tenantId, id);
      if (compiled && input.base_version !== undefined && input.base_version !== row.version) {
        const kept = await addVersion(tx, row, content, compiled, key, userId, false);
        return {
          kind: 'conflict',
          body: {
            message: CONFLICT_MESSAGE(row.version, kept),
            errors: { base_version: [CONFLICT_MESSAGE(row.version, kept)] },
            current_version: row.version,
            kept_version: kept,
          },
        };
      }
      if (row.version !== read.version) return 'again';
      if (Object.keys(head).length > 0) {
        await tx
          .update(templates)
          .set({ ...head, updatedAt: sql`now()`, updatedBy: userId })
          .where(eq(templates.id, row.id));
      }
      if (compiled) await addVersion(tx, row, content, compiled, key, userId, true);
      return { kind: 'saved', saved: { template: toTemplate(row, current, read, UNUSED), warnings: [] } };
    });
    if (outcome === 'again') {
      if (attempt < SAVE_ATTEMPTS) continue;
      throw new Error('template save kept meeting concurrent saves');
    }
    if (outcome.kind === 'conflict') return outcome;
    templatesChanged(ctx.db, tenantId);
    return { kind: 'saved', saved: await savedAnswer(ctx, tenantId, id) };
  }
}

/** 'Copy of …', within the name's limit. */
export function copyName(name: string): string {
  return `Copy of ${name}`.slice(0, TEMPLATE_LIMITS.name);
}

/** POST /v1/templates/{id}/duplicate: a new template whose version 1 is the current content. */
export async function duplicateTemplate(
  ctx: TemplatesContext,
  tenantId: string,
  userId: string | null,
  id: string,
  name: string | undefined,
): Promise<Template> {
  const row = await templateRow(ctx.db, tenantId, id);
  const version = await versionRow(ctx.db, row.id, row.version);
  const compiled = await compiledVersion(ctx, version);
  const newId = await insertTemplate(
    ctx,
    tenantId,
    userId,
    { name: name ?? copyName(row.name), kind: row.kind },
    contentOf(version),
    compiled,
    compiledWith(ctx),
  );
  return (await savedAnswer(ctx, tenantId, newId)).template;
}

/** POST /v1/templates/{id}/versions/{version}/restore: that version's content saved as the new current version. */
export async function restoreVersion(
  ctx: TemplatesContext,
  tenantId: string,
  userId: string | null,
  id: string,
  number: number,
): Promise<TemplateSaved> {
  const read = await templateRow(ctx.db, tenantId, id);
  const version = await versionRow(ctx.db, read.id, number);
  const compiled = await compiledVersion(ctx, version);
  await ctx.db.transaction(async (tx) => {
    const row = await lockedRow(tx, tenantId, id);
    await addVersion(tx, row, contentOf(version), compiled, compiledWith(ctx), userId, true);
  });
  templatesChanged(ctx.db, tenantId);
  return savedAnswer(ctx, tenantId, id);
}
