/**
 * Compiled versions. A version's HTML and text part are compiled once, when it is saved, and stored
 * with it; a version compiled with another key (the public address or the renderer's revision
 * changed) is compiled again on first use and stored again. The parsed Liquid of a version
 * (PreparedTemplate) is kept in memory for the last PREPARED_KEPT versions used: a preview, a test
 * or a campaign's whole send parse it once.
 */
import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/index';
import { templateVersions, type TemplateRow, type TemplateVersionRow } from '../db/schema';
import { badRequest, INVALID_INPUT } from '../errors';
import { compiledWith, TemplateInputError, type CompiledContent } from './render/compile';
import { compileContent } from './render/compile-task';
import { prepareTemplate, type PreparedTemplate } from './render/prepared';
import type { TemplateSources } from './render/render-task';
import { templateRow, versionRow } from './template-store';

export interface TemplatesContext {
  db: Database;
  /** GATEWAY_PUBLIC_URL: social icons are served from it. */
  publicUrl: string;
}

/** A template version ready to merge for recipients. */
export interface LoadedTemplate {
  template: TemplateRow;
  version: TemplateVersionRow;
  prepared: PreparedTemplate;
}

const PREPARED_KEPT = 100;
const prepared = new Map<string, PreparedTemplate>();

/** The version's compiled HTML and text, compiled again (and stored) when its key is not this gateway's. */
export async function compiledVersion(ctx: TemplatesContext, version: TemplateVersionRow): Promise<CompiledContent> {
  const key = compiledWith(ctx);
  if (version.compiledWith === key) return { html: version.html, text: version.text };
  let compiled: CompiledContent;
  try {
    compiled = await compileContent(
      { subject: version.subject, preview_text: version.previewText, mjml: version.mjml },
      ctx,
    );
  } catch (error) {
    // A version saved under an older renderer that this one refuses.
    if (error instanceof TemplateInputError) throw badRequest(INVALID_INPUT, error.errors);
    throw error;
  }
  await ctx.db
    .update(templateVersions)
    .set({ html: compiled.html, text: compiled.text, compiledWith: key })
    .where(and(eq(templateVersions.templateId, version.templateId), eq(templateVersions.version, version.version)));
  version.html = compiled.html;
  version.text = compiled.text;
  version.compiledWith = key;
  return compiled;
}

/** Parsed Liquid of a version, from memory when it was used lately. */
export async function preparedOf(ctx: TemplatesContext, version: TemplateVersionRow): Promise<PreparedTemplate> {
  const compiled = await compiledVersion(ctx, version);
  const key = `${version.templateId}:${version.version}:${version.compiledWith}`;
  const hit = prepared.get(key);
  if (hit) {
    prepared.delete(key);
    prepared.set(key, hit); // most recently used last
    return hit;
  }
  const made = prepareTemplate({ subject: version.subject, preview_text: version.previewText }, compiled);
  prepared.set(key, made);
  if (prepared.size > PREPARED_KEPT) prepared.delete(prepared.keys().next().value ?? key);
  return made;
}

/** A template of the tenant at one version, compiled: what renders in the off-loop pool start from. */
export interface CompiledTemplate {
  template: TemplateRow;
  version: TemplateVersionRow;
}

/**
 * A template of the tenant at one version (its current one by default), compiled but not parsed: the
 * off-loop pool parses it (render/render-task.ts). Another tenant's template or a version no longer kept: 404.
 */
export async function loadCompiled(
  ctx: TemplatesContext,
  tenantId: string,
  templateId: string,
  version?: number | null,
): Promise<CompiledTemplate> {
  const template = await templateRow(ctx.db, tenantId, templateId);
  const row = await versionRow(ctx.db, template.id, version ?? template.version);
  await compiledVersion(ctx, row);
  return { template, version: row };
}

/** A version's sources for a render. */
export function versionSources(version: TemplateVersionRow): TemplateSources {
  return { subject: version.subject, previewText: version.previewText, html: version.html, text: version.text };
}

/**
 * A template of the tenant at one version (its current one by default), parsed here and ready to
 * merge on this thread (tests, tools). Another tenant's template or a version no longer kept: 404.
 */
export async function loadTemplate(
  ctx: TemplatesContext,
  tenantId: string,
  templateId: string,
  version?: number | null,
): Promise<LoadedTemplate> {
  const template = await templateRow(ctx.db, tenantId, templateId);
  const row = await versionRow(ctx.db, template.id, version ?? template.version);
  return { template, version: row, prepared: await preparedOf(ctx, row) };
}
