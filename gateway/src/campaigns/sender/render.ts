/**
 * A recipient's message (spec section 2, engagement/emails: merge tags, tracking, unsubscribe): the
 * send's template prepared once per run, each message rendered for its contact, decorated with the
 * tracking links, built as MIME (mime.ts) and DKIM-signed: by the platform, and by the tenant's
 * verified domain of the From address (mail/signing-keys.ts).
 */
import type { Config } from '../../config';
import type { Database } from '../../db/index';
import { toChecksumAddress } from '../../lib/eip55';
import {
  bindSend,
  contactScope,
  loadMergeContext,
  loadTemplate,
  renderMessage,
  TemplateRenderError,
  type MergeContext,
  type PreparedTemplate,
} from '../../templates/index';
import { dkimKeyFor, effectiveSender, signWithKeys, trackingBaseFor, type DkimKey } from '../../domains/index';
import { signingKeys } from '../../mail/signing-keys';
import { prepareCampaign } from '../campaign-preview';
import {
  campaignHeaders,
  campaignListHeaders,
  decorateHtml,
  decorateText,
  type TrackingSettings,
} from '../tracking/decorate';
import { recipientToken } from '../tracking/recipient-token';
import { unsubscribeMailto } from '../inbound/addresses';
import { trackingUrls } from '../tracking/links';
import type { Claimed } from './claim';
import { buildMime, sharedHeaders } from './mime';

/** What the send job reads of a campaign (run.ts `loadCampaign`). */
export interface CampaignState {
  id: string;
  tenantId: string;
  status: string;
  scheduledAt: number | null;
  templateId: string | null;
  templateVersion: number | null;
  audienceTakenAt: string | null;
  audience: unknown;
  subject: string;
  previewText: string;
  fromName: string;
  fromEmail: string;
  replyTo: string;
  tracking: TrackingSettings;
}

/** The send of one run: what every recipient shares. */
export interface SendContext {
  campaign: CampaignState;
  template: PreparedTemplate;
  merge: MergeContext;
  from: { name: string; address: string };
  /** From and Reply-To, encoded once for the send (mime.ts). */
  headers: string;
  senderDomain: string;
  /** Where the message's tracking links point: the tenant's verified tracking CNAME, else TRACKING_URL. */
  trackingUrl: string;
  /** List-Id and Feedback-ID, the same for every recipient of the send (tracking/decorate.ts). */
  listHeaders: Record<string, string>;
  /** The keys every message is DKIM-signed with, topmost first (mail/signing-keys.ts). */
  dkim: DkimKey[];
}

export interface Message {
  to: string;
  raw: Buffer;
  messageId: string;
}

function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1) || 'localhost';
}

/**
 * The send's context: the From address (the platform's when the tenant's domain stopped verifying)
 * and the DKIM keys that sign it, the template at the campaign's version with the community's merge
 * values bound. Throws when the template cannot be loaded.
 */
export async function loadSendContext(db: Database, config: Config, campaign: CampaignState): Promise<SendContext> {
  const sender = await effectiveSender(
    db,
    campaign.tenantId,
    { from: campaign.fromEmail, replyTo: campaign.replyTo },
    config.campaigns.defaultFrom,
  );
  const dkim = signingKeys(await dkimKeyFor(db, campaign.tenantId, sender.from), config.platformDkim);
  const trackingUrl =
    (await trackingBaseFor(db, campaign.tenantId, sender.from, config.campaigns.trackingUrl)) ??
    config.campaigns.trackingUrl;
  const templates = { db, publicUrl: config.onboarding.publicUrl };
  const loaded = await loadTemplate(templates, campaign.tenantId, campaign.templateId ?? '', campaign.templateVersion);
  const merge = await loadMergeContext(db, campaign.tenantId, config.onboarding.publicUrl);
  const prepared = prepareCampaign(loaded.version, campaign);
  const from = { name: campaign.fromName || merge.community.name, address: sender.from };
  return {
    campaign,
    template: bindSend(prepared, {
      community: { ...merge.community, postal_address: merge.community.postal_address ?? '' },
    }),
    merge,
    from,
    headers: sharedHeaders({ from, ...(sender.replyTo ? { replyTo: sender.replyTo } : {}) }),
    senderDomain: domainOf(from.address),
    trackingUrl,
    listHeaders: campaignListHeaders(campaign, merge.community.name, domainOf(config.campaigns.defaultFrom)),
    dkim,
  };
}

export const RENDER_TOO_SLOW = 'The e-mail took longer to render than its limit allows: it is tried again later.';

/** One recipient's message, or why it is not sent (for good, or for now). */
export function buildMessage(
  config: Config,
  ctx: SendContext,
  row: Claimed,
): Message | { failed: string } | { deferred: string } {
  const contact = row.contact;
  if (!contact) return { failed: 'The contact was deleted before the e-mail was sent.' };
  if (contact.status !== 'subscribed') return { failed: `The contact is ${contact.status}: not sent.` };
  const campaigns = config.campaigns;
  let to = row.address;
  if (row.channel === 'wallet') {
    if (!contact.wallet || !campaigns.walletMailDomain) return { failed: 'The wallet has no mail domain set.' };
    to = `${toChecksumAddress(contact.wallet)}@${campaigns.walletMailDomain}`;
  } else if (contact.email) {
    to = contact.email;
  }
  const urls = trackingUrls(ctx.trackingUrl, campaigns.trackingSecret, row.id);
  const scope = contactScope(
    {
      email: contact.email,
      wallet: contact.wallet,
      first_name: contact.first_name,
      last_name: contact.last_name,
      attributes: contact.attributes,
    },
    ctx.merge.attributes,
    ctx.merge.community,
    { unsubscribe_url: urls.unsubscribe, view_in_browser_url: urls.view },
  );
  let rendered;
  for (let attempt = 1; !rendered; attempt++) {
    try {
      rendered = renderMessage(ctx.template, scope);
    } catch (error) {
      // Past the render's time limit: once more at once (a pause of the process trips it), then later.
      const timedOut = error instanceof TemplateRenderError && error.timedOut;
      if (timedOut && attempt < 2) continue;
      if (timedOut) return { deferred: RENDER_TOO_SLOW };
      return { failed: `The e-mail could not be rendered: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  const messageId = `<${ctx.campaign.id}.${row.id}@${ctx.senderDomain}>`;
  const raw = buildMime(ctx.headers, {
    to,
    subject: rendered.subject,
    html: decorateHtml(rendered.html, urls, ctx.campaign.tracking),
    text: decorateText(rendered.text, urls, ctx.campaign.tracking),
    messageId,
    headers: {
      ...ctx.listHeaders,
      ...campaignHeaders(urls, recipientToken(campaigns.trackingSecret, row.id), unsubscribeMailto(campaigns, row.id)),
    },
  });
  return { to, raw, messageId };
}

/** The message with its DKIM signatures, or why it is not sent (a key mailauth refuses). */
export async function signed(message: Message, keys: readonly DkimKey[]): Promise<Message | { failed: string }> {
  try {
    return { ...message, raw: await signWithKeys(message.raw, keys) };
  } catch (error) {
    return { failed: `The e-mail could not be signed: ${error instanceof Error ? error.message : String(error)}` };
  }
}
