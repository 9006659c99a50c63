/**
 * The saved template rendered by the server for one recipient: the designer's "preview as" (a
 * contact of the tenant, or the catalogue's sample values) and the test send to up to five
 * addresses through the gateway's mailer (an HTML and a plain-text part).
 */
import type { TemplatePreview, TemplatePreviewRequest, TemplateTestSend, TemplateTestSent } from '../contracts';
import { badRequest, INVALID_INPUT } from '../errors';
import type { Mailer } from '../mail/mailer';
import { loadContact, loadMergeContext } from './merge-context';
import { contactScope, knownMergeTags, mergeTagWarnings, sampleLinks, sampleScope } from './merge-tags';
import { TemplateRenderError } from './render/liquid';
import type { RenderedMessage } from './render/prepared';
import { renderOffLoop } from './render/render-task';
import { loadCompiled, versionSources, type TemplatesContext } from './template-cache';
import type { TestSendLimit } from '../lib/test-send-limit';

async function renderFor(
  ctx: TemplatesContext,
  tenantId: string,
  id: string,
  contactId: string | null | undefined,
  version?: number | null,
): Promise<TemplatePreview> {
  const loaded = await loadCompiled(ctx, tenantId, id, version);
  const merge = await loadMergeContext(ctx.db, tenantId, ctx.publicUrl);
  const links = sampleLinks(ctx.publicUrl);
  const scope = contactId
    ? contactScope(await loadContact(ctx.db, tenantId, contactId), merge.attributes, merge.community, links)
    : sampleScope(merge.attributes, merge.community, links);
  let message: RenderedMessage;
  try {
    // As a campaign renders it (bound to the send, then merged for the recipient), in the off-loop pool.
    message = await renderOffLoop(versionSources(loaded.version), scope);
  } catch (error) {
    if (!(error instanceof TemplateRenderError)) throw error;
    throw badRequest(INVALID_INPUT, { mjml: [`The merge tags could not be filled in: ${error.message}`] });
  }
  const { version: v, template } = loaded;
  const warnings = mergeTagWarnings(
    { subject: v.subject, preview_text: v.previewText, mjml: v.mjml },
    knownMergeTags(merge.attributes),
    { kind: template.kind, hasPostalAddress: merge.community.postal_address !== null },
  );
  return { ...message, warnings };
}

/** POST /v1/templates/{id}/preview. */
export function previewTemplate(
  ctx: TemplatesContext,
  tenantId: string,
  id: string,
  request: TemplatePreviewRequest,
): Promise<TemplatePreview> {
  return renderFor(ctx, tenantId, id, request.contact_id, request.version);
}

/**
 * GET /v1/templates/{id}/html: the current version as the grid's and compose's thumbnails show it,
 * merged for the catalogue's sample values (the community's own), so no raw `{{ … }}` shows. A design
 * whose merge tags cannot be filled in shows its compiled HTML, tags as written.
 */
export async function thumbnailHtml(
  ctx: TemplatesContext,
  tenantId: string,
  id: string,
): Promise<{ version: number; html: string }> {
  const loaded = await loadCompiled(ctx, tenantId, id);
  const merge = await loadMergeContext(ctx.db, tenantId, ctx.publicUrl);
  const scope = sampleScope(merge.attributes, merge.community, sampleLinks(ctx.publicUrl));
  try {
    return { version: loaded.version.version, html: (await renderOffLoop(versionSources(loaded.version), scope)).html };
  } catch (error) {
    if (!(error instanceof TemplateRenderError)) throw error;
    return { version: loaded.version.version, html: loaded.version.html };
  }
}

/** Test e-mails say so in the subject, as Mailchimp's do. */
export const TEST_SUBJECT_PREFIX = '[Test] ';

/**
 * POST /v1/templates/{id}/test: one e-mail per address (recipients never see each other), within the
 * console's one test-send limit (lib/test-send-limit.ts).
 */
export async function sendTestEmails(
  ctx: TemplatesContext & { mailer: Mailer; testLimit: TestSendLimit },
  tenantId: string,
  userId: string,
  id: string,
  body: TemplateTestSend,
): Promise<TemplateTestSent> {
  const message = await renderFor(ctx, tenantId, id, body.contact_id);
  const recipients = [...new Set(body.recipients.map((r) => r.trim().toLowerCase()))];
  await ctx.testLimit.take(tenantId, userId, recipients.length);
  for (const to of recipients) {
    await ctx.mailer.send({
      to,
      subject: `${TEST_SUBJECT_PREFIX}${message.subject}`,
      html: message.html,
      text: message.text,
    });
  }
  const n = recipients.length;
  return { message: `Test e-mail sent to ${n} ${n === 1 ? 'address' : 'addresses'}.`, sent: n };
}
