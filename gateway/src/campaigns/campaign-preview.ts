/**
 * The campaign as a recipient gets it, with the templates area's renderer (templates/index.ts: the
 * version loaded and compiled once, bound to the send, merged per recipient): the review's "preview
 * as a contact" (or sample values), and test e-mails to up to five addresses through the gateway's
 * mailer, the subject prefixed '[Test] ' as the designer's are.
 *
 * The subject and preview text are the campaign's own (compose edits them), the body the template's.
 */
import type { CampaignPreview, CampaignTestSend } from '../contracts';
import { CAMPAIGN_LIMITS } from '../contracts';
import { dkimKeyFor, effectiveSender } from '../domains/index';
import type { Database } from '../db/index';
import type { CampaignRow } from '../db/schema';
import { badRequest, INVALID_INPUT, type FieldErrors } from '../errors';
import type { Mailer } from '../mail/mailer';
import { normaliseEmail } from '../audience/index';
import {
  contactScope,
  describeLiquidError,
  LiquidSyntaxError,
  loadCompiled,
  loadContact,
  loadMergeContext,
  renderOffLoop,
  sampleLinks,
  sampleScope,
  TemplateRenderError,
  TEST_SUBJECT_PREFIX,
  withPreviewText,
  withSubjectTitle,
  type TemplateSources,
} from '../templates/index';
import type { TestSendLimit } from '../lib/test-send-limit';

export interface PreviewContext {
  db: Database;
  /** GATEWAY_PUBLIC_URL (the templates' social icons and the sample links). */
  publicUrl: string;
}

/** A test send also needs the platform's sender address (CAMPAIGN_FROM). */
export interface TestSendContext extends PreviewContext {
  mailer: Mailer;
  testLimit: TestSendLimit;
  platformFrom: string;
}

/** What a campaign takes from its template's version. */
export interface CampaignTemplateVersion {
  html: string;
  text: string;
  subject: string;
  previewText: string;
}

/**
 * The template's version with the campaign's own subject and preview text (compose edits them; an
 * empty one is the template's): the subject, the page title of the HTML (view in browser) and the
 * hidden preview box. Sends, previews and view in browser all render from this.
 */
export function campaignSources(
  version: CampaignTemplateVersion,
  campaign: { subject: string; previewText: string },
): TemplateSources {
  const subject = campaign.subject || version.subject;
  const titled = withSubjectTitle(version.html, version.subject, subject);
  return {
    subject,
    previewText: campaign.previewText || version.previewText,
    html: campaign.previewText ? withPreviewText(titled, campaign.previewText) : titled,
    text: version.text,
  };
}

/** POST /v1/campaigns/{id}/preview: the campaign rendered for a contact of the tenant, or sample values. */
export async function previewCampaign(
  ctx: PreviewContext,
  row: CampaignRow,
  contactId: string | null | undefined,
): Promise<CampaignPreview> {
  if (!row.templateId) throw badRequest(INVALID_INPUT, { template_id: ['Choose a template first.'] });
  const loaded = await loadCompiled(ctx, row.tenantId, row.templateId);
  const merge = await loadMergeContext(ctx.db, row.tenantId, ctx.publicUrl);
  const links = sampleLinks(ctx.publicUrl);
  const scope = contactId
    ? contactScope(await loadContact(ctx.db, row.tenantId, contactId), merge.attributes, merge.community, links)
    : sampleScope(merge.attributes, merge.community, links);
  try {
    // In the off-loop pool, as a send renders it.
    return await renderOffLoop(campaignSources(loaded.version, row), scope);
  } catch (error) {
    if (error instanceof LiquidSyntaxError) throw badRequest(INVALID_INPUT, { subject: [describeLiquidError(error)] });
    if (!(error instanceof TemplateRenderError)) throw error;
    throw badRequest(INVALID_INPUT, { template_id: [`The merge tags could not be filled in: ${error.message}`] });
  }
}

/** Each address once, checked; a 400 naming the bad ones. */
function testAddresses(to: readonly string[]): string[] {
  const out: string[] = [];
  const errors: FieldErrors = {};
  for (const raw of to) {
    const result = normaliseEmail(raw);
    if (!result.ok || !result.value) {
      errors.to = [`"${raw.trim()}" is not a valid e-mail address.`];
      continue;
    }
    if (!out.includes(result.value)) out.push(result.value);
  }
  if (Object.keys(errors).length > 0) throw badRequest(INVALID_INPUT, errors);
  if (out.length > CAMPAIGN_LIMITS.testRecipients) {
    throw badRequest(INVALID_INPUT, { to: [`Send a test to at most ${CAMPAIGN_LIMITS.testRecipients} addresses.`] });
  }
  return out;
}

/**
 * POST /v1/campaigns/{id}/test: one e-mail per address (recipients never see each other), from the
 * address the campaign will use (domains/senders.ts) and DKIM-signed like it (the mailer signs with the
 * platform's key, and with the verified domain's given here).
 */
export async function sendCampaignTest(
  ctx: TestSendContext,
  row: CampaignRow,
  userId: string,
  body: CampaignTestSend,
): Promise<{ message: string }> {
  const recipients = testAddresses(body.to);
  const message = await previewCampaign(ctx, row, body.contact_id);
  await ctx.testLimit.take(row.tenantId, userId, recipients.length);
  const sender = await effectiveSender(
    ctx.db,
    row.tenantId,
    { from: row.fromEmail, replyTo: row.replyTo },
    ctx.platformFrom,
  );
  const dkim = await dkimKeyFor(ctx.db, row.tenantId, sender.from);
  const fromName = row.fromName || (await loadMergeContext(ctx.db, row.tenantId, ctx.publicUrl)).community.name;
  for (const to of recipients) {
    await ctx.mailer.send({
      to,
      subject: `${TEST_SUBJECT_PREFIX}${message.subject}`,
      html: message.html,
      text: message.text,
      from: { name: fromName, address: sender.from },
      ...(sender.replyTo ? { replyTo: sender.replyTo } : {}),
      ...(dkim ? { dkim } : {}),
    });
  }
  const n = recipients.length;
  return { message: `Test e-mail sent to ${n} ${n === 1 ? 'address' : 'addresses'}.` };
}
