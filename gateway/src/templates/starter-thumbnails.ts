/**
 * The starter gallery's thumbnails (GET /v1/templates/starters/{key}/html and
 * …/starters/gallery/{id}/html): each design drawn as the templates grid draws its thumbnails, merged
 * for the caller's sample values (the community's own name and links, template-preview.ts). A built-in
 * starter depends only on the gateway's public address: it is compiled and parsed once per gateway; a
 * gallery design's current version goes through the versions' own cache (template-cache.ts).
 */
import { and, eq } from 'drizzle-orm';
import type { TemplateStarter } from '../contracts';
import { templates } from '../db/schema';
import { notFound } from '../errors';
import { isUuid } from '../lib/db-helpers';
import { loadMergeContext } from './merge-context';
import { sampleLinks, sampleScope } from './merge-tags';
import { compiledWith } from './render/compile';
import { compileContent } from './render/compile-task';
import { TemplateRenderError } from './render/liquid';
import { bindSend, prepareTemplate, renderMessage, type PreparedTemplate } from './render/prepared';
import { STARTERS } from './starters/index';
import { preparedOf, type TemplatesContext } from './template-cache';
import { versionRow } from './template-store';

interface PreparedStarter {
  prepared: PreparedTemplate;
  html: string;
}

const starters = new Map<string, Promise<PreparedStarter>>();

function preparedStarter(ctx: TemplatesContext, key: TemplateStarter): Promise<PreparedStarter> {
  const cacheKey = `${key} ${compiledWith(ctx)}`;
  let made = starters.get(cacheKey);
  if (!made) {
    const design = STARTERS[key].design(ctx);
    made = compileContent(design, ctx).then((compiled) => ({
      prepared: prepareTemplate(design, compiled),
      html: compiled.html,
    }));
    made.catch(() => starters.delete(cacheKey));
    starters.set(cacheKey, made);
  }
  return made;
}

/** The design merged for the tenant's sample values; tags as written when they cannot be filled in. */
async function sampleHtml(ctx: TemplatesContext, tenantId: string, prepared: PreparedTemplate, compiled: string) {
  const merge = await loadMergeContext(ctx.db, tenantId, ctx.publicUrl);
  const scope = sampleScope(merge.attributes, merge.community, sampleLinks(ctx.publicUrl));
  try {
    return { html: renderMessage(bindSend(prepared, scope), scope).html };
  } catch (error) {
    if (!(error instanceof TemplateRenderError)) throw error;
    return { html: compiled };
  }
}

export async function starterThumbnail(
  ctx: TemplatesContext,
  tenantId: string,
  key: TemplateStarter,
): Promise<{ html: string }> {
  const { prepared, html } = await preparedStarter(ctx, key);
  return sampleHtml(ctx, tenantId, prepared, html);
}

export const NOT_A_GALLERY_DESIGN = 'This design is not in the starter gallery.';

export async function galleryThumbnail(ctx: TemplatesContext, tenantId: string, id: string): Promise<{ html: string }> {
  const [row] = isUuid(id)
    ? await ctx.db
        .select({ id: templates.id, version: templates.version })
        .from(templates)
        .where(and(eq(templates.id, id), eq(templates.inGallery, true)))
    : [];
  if (!row) throw notFound(NOT_A_GALLERY_DESIGN);
  const version = await versionRow(ctx.db, row.id, row.version);
  return sampleHtml(ctx, tenantId, await preparedOf(ctx, version), version.html);
}
