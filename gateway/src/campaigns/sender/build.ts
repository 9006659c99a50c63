/**
 * A recipient's message (spec section 2, engagement/emails: merge tags, tracking, unsubscribe), built
 * by a thread of the off-loop pool (lib/off-loop/pool.ts): rendered for its contact, decorated with the
 * tracking links, built as MIME (mime.ts) and, with a key, DKIM-signed. A task is a few recipients of
 * one send; the send's template is parsed and bound once per thread. Light on purpose: the pool's
 * threads load this without the database's modules.
 */
import { toChecksumAddress } from '../../lib/eip55';
import { offLoopTask } from '../../lib/off-loop/pool';
import {
  bindSend,
  contactScope,
  failedOutcome,
  LiquidSyntaxError,
  preparedHere,
  renderMessage,
  sourcesKey,
  type MergeContext,
  type PreparedTemplate,
  type TemplateSources,
} from '../../templates/off-loop-tasks';
import { dkimHeadersHere, type DkimKey } from '../../domains/off-loop-tasks';
import { unsubscribeMailto } from '../inbound/addresses';
import { campaignHeaders, decorateHtml, decorateText, type TrackingSettings } from '../tracking/decorate';
import { recipientToken } from '../tracking/recipient-token';
import { trackingUrls } from '../tracking/links';
import type { Claimed } from './claim';
import { buildMime } from './mime';

/** What the send job reads of a campaign (run.ts `loadCampaign`). */
export interface CampaignState {
  id: string;
  tenantId: string;
  /** 'transactional': a carrier of API messages (carrier.ts): each row has its own address and merge data. */
  kind: 'campaign' | 'transactional';
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

/** What the send's messages are built with: the settings a worker needs (config.campaigns). */
export interface BuildSettings {
  walletMailDomain: string | null;
  trackingSecret: string;
  unsubscribeMailbox: string;
  bounceDomain: string;
}

/**
 * The send of one run: what every recipient shares, as a worker of the off-loop pool receives it
 * (structured-cloneable; the template as its sources, parsed once per worker).
 */
export interface SendContext {
  /** This run's send (a worker parses and binds the template once per key). */
  key: string;
  campaign: CampaignState;
  sources: TemplateSources;
  merge: MergeContext;
  from: { name: string; address: string };
  /** From and Reply-To, encoded once for the send (mime.ts). */
  headers: string;
  senderDomain: string;
  /** Where the message's tracking links point: the tenant's verified tracking CNAME, else TRACKING_URL. */
  trackingUrl: string;
  /** List-Id and Feedback-ID, the same for every recipient of the send (tracking/decorate.ts). */
  listHeaders: Record<string, string>;
  /** The keys every message is DKIM-signed with, topmost first: the platform's, and the tenant's verified domain's (mail/signing-keys.ts). */
  dkim: DkimKey[];
  settings: BuildSettings;
}

export interface Message {
  to: string;
  raw: Buffer;
  messageId: string;
}

/** One recipient's outcome: the message, or why it is not sent (for good, or for now). */
export type Built = Message | { failed: string } | { deferred: string };

/** The send's template parsed and bound to the send's constants, per worker, by the send's key. */
const bound = new Map<string, PreparedTemplate | LiquidSyntaxError>();
const BOUND_KEPT = 20;

function boundHere(ctx: SendContext): PreparedTemplate | LiquidSyntaxError {
  let hit = bound.get(ctx.key);
  if (!hit) {
    const parsed = preparedHere(sourcesKey(ctx.sources), ctx.sources);
    hit =
      parsed instanceof LiquidSyntaxError
        ? parsed
        : bindSend(parsed, {
            community: { ...ctx.merge.community, postal_address: ctx.merge.community.postal_address ?? '' },
          });
    if (bound.size >= BOUND_KEPT) bound.delete(bound.keys().next().value ?? ctx.key);
    bound.set(ctx.key, hit);
  }
  return hit;
}

/**
 * A transactional message's recipient and scope: the address accepted by the API (a wallet's already
 * on WALLET_MAIL_DOMAIN), and the request's `data` at the top of the scope, with `contact` from the
 * matching contact (if any) under what `data.contact` gives. Who may receive it was decided when the
 * API accepted it (transactional/accept.ts).
 */
function transactionalScope(
  ctx: SendContext,
  row: Claimed,
  links: { unsubscribe_url: string; view_in_browser_url: string },
) {
  const data = row.data ?? {};
  const given = data.contact;
  const contact = row.contact;
  const base = contact
    ? contactScope(
        {
          email: contact.email,
          wallet: contact.wallet,
          first_name: contact.first_name,
          last_name: contact.last_name,
          attributes: contact.attributes,
        },
        ctx.merge.attributes,
        ctx.merge.community,
        links,
      )
    : contactScope(
        { email: row.address, wallet: null, first_name: '', last_name: '', attributes: {} },
        [],
        ctx.merge.community,
        links,
      );
  const fields = typeof given === 'object' && given !== null && !Array.isArray(given) ? given : {};
  return { ...data, ...base, contact: { ...base.contact, ...fields } as typeof base.contact };
}

/** One recipient's message, or why it is not sent for good (a worker of the pool runs this). */
export function buildMessage(ctx: SendContext, template: PreparedTemplate, row: Claimed): Message | { failed: string } {
  if (ctx.campaign.kind === 'transactional') {
    const urls = trackingUrls(ctx.trackingUrl, ctx.settings.trackingSecret, row.id);
    // A wallet's row holds its lower-cased address: the message goes to the checksummed one, as campaigns'.
    const at = row.address.lastIndexOf('@');
    const to =
      row.channel === 'wallet' ? `${toChecksumAddress(row.address.slice(0, at))}${row.address.slice(at)}` : row.address;
    return compose(
      ctx,
      template,
      row,
      to,
      urls,
      transactionalScope(ctx, row, { unsubscribe_url: urls.unsubscribe, view_in_browser_url: urls.view }),
    );
  }
  const contact = row.contact;
  if (!contact) return { failed: 'The contact was deleted before the e-mail was sent.' };
  if (contact.status !== 'subscribed') return { failed: `The contact is ${contact.status}: not sent.` };
  const settings = ctx.settings;
  let to = row.address;
  if (row.channel === 'wallet') {
    if (!contact.wallet || !settings.walletMailDomain) return { failed: 'The wallet has no mail domain set.' };
    to = `${toChecksumAddress(contact.wallet)}@${settings.walletMailDomain}`;
  } else if (contact.email) {
    to = contact.email;
  }
  const urls = trackingUrls(ctx.trackingUrl, settings.trackingSecret, row.id);
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
  return compose(ctx, template, row, to, urls, scope);
}

/** The message rendered for `scope`, decorated with the row's tracking links, as MIME. */
function compose(
  ctx: SendContext,
  template: PreparedTemplate,
  row: Claimed,
  to: string,
  urls: ReturnType<typeof trackingUrls>,
  scope: ReturnType<typeof contactScope>,
): Message | { failed: string } {
  const settings = ctx.settings;
  let rendered;
  try {
    rendered = renderMessage(template, scope);
  } catch (error) {
    // A limit of the template's own work or a bad operation: the same again on every try.
    return { failed: `The e-mail could not be rendered: ${failedOutcome(error).error}` };
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
      ...campaignHeaders(urls, recipientToken(settings.trackingSecret, row.id), unsubscribeMailto(settings, row.id)),
    },
  });
  return { to, raw, messageId };
}

/** A task of the pool: a few recipients of one send. */
export interface BuildBatch {
  ctx: SendContext;
  rows: Claimed[];
}

/** The worker's side: each row built and, with a key, signed. */
export async function buildBatchHere({ ctx, rows }: BuildBatch): Promise<Built[]> {
  const template = boundHere(ctx);
  const out: Built[] = [];
  for (const row of rows) {
    if (template instanceof LiquidSyntaxError) {
      out.push({ failed: `The e-mail could not be rendered: ${template.message}` });
      continue;
    }
    const message = buildMessage(ctx, template, row);
    if (!('raw' in message) || ctx.dkim.length === 0) {
      out.push(message);
      continue;
    }
    try {
      const signature = await dkimHeadersHere(message.raw, ctx.dkim);
      out.push({ ...message, raw: Buffer.concat([Buffer.from(signature, 'latin1'), message.raw]) });
    } catch (error) {
      out.push({ failed: `The e-mail could not be signed: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
  return out;
}

export const buildTask = offLoopTask<BuildBatch, Built[]>('campaign-build');
