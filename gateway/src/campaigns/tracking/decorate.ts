/**
 * What a campaign adds to each rendered e-mail: UTM parameters on its links, click redirects, the
 * open pixel; and the links it must carry (List-Unsubscribe, RFC 2369 and RFC 8058). Pure: the sender
 * calls it per recipient with that recipient's tracking addresses (tracking/links.ts).
 */
import type { UtmParameters } from '../../contracts';
import type { TrackingUrls } from './links';

export interface TrackingSettings {
  trackOpens: boolean;
  trackClicks: boolean;
  utm: UtmParameters;
}

const UTM_KEYS = ['source', 'medium', 'campaign', 'term', 'content'] as const;

/** `url` with the campaign's UTM parameters that are set and not already in it (http and https links only). */
export function withUtm(url: string, utm: UtmParameters): string {
  if (!/^https?:\/\//i.test(url)) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  let changed = false;
  for (const key of UTM_KEYS) {
    const value = utm[key].trim();
    if (value && !parsed.searchParams.has(`utm_${key}`)) {
      parsed.searchParams.set(`utm_${key}`, value);
      changed = true;
    }
  }
  return changed ? parsed.toString() : url;
}

/**
 * The UTM targets of a send's links, by the send's UTM parameters (one object for a whole send): the
 * same links come back in every recipient's e-mail, and parsing each URL again costs about as much as
 * the rest of decorating it (bench/README.md, "Tracking links"). Bounded: merge tags can
 * make every recipient's links differ.
 */
const targetsBySettings = new WeakMap<UtmParameters, Map<string, string>>();
const MAX_TARGETS = 1_000;

function utmTarget(url: string, utm: UtmParameters): string {
  let targets = targetsBySettings.get(utm);
  if (!targets) targetsBySettings.set(utm, (targets = new Map()));
  let target = targets.get(url);
  if (target === undefined) {
    target = withUtm(url, utm);
    if (targets.size >= MAX_TARGETS) targets.clear();
    targets.set(url, target);
  }
  return target;
}

const HREF = /(<a\b[^>]*?\shref\s*=\s*)(["'])([^"']*)\2/gi;

function decodeAttribute(value: string): string {
  return value
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"');
}

function encodeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

/** The links of an e-mail that are tracked: http(s) links that are not the recipient's own tracking links. */
function isTrackable(url: string, urls: TrackingUrls): boolean {
  return /^https?:\/\//i.test(url) && url !== urls.unsubscribe && url !== urls.view;
}

/** The HTML part with UTM parameters, click redirects and (at the end of the body) the open pixel. */
export function decorateHtml(html: string, urls: TrackingUrls, settings: TrackingSettings): string {
  let out = html.replace(HREF, (whole, start: string, quote: string, raw: string) => {
    const url = decodeAttribute(raw);
    if (!isTrackable(url, urls)) return whole;
    const target = utmTarget(url, settings.utm);
    const href = settings.trackClicks ? urls.click(target) : target;
    return `${start}${quote}${encodeAttribute(href)}${quote}`;
  });
  if (settings.trackOpens) {
    const pixel = `<img src="${encodeAttribute(urls.open)}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0" />`;
    out = /<\/body>/i.test(out) ? out.replace(/<\/body>/i, `${pixel}</body>`) : out + pixel;
  }
  return out;
}

const TEXT_URL = /https?:\/\/[^\s<>"')\]]+/gi;
const TRAILING_PUNCTUATION = /[.,;:!?]+$/;

/** The plain-text part with UTM parameters and click redirects (no pixel in text). */
export function decorateText(text: string, urls: TrackingUrls, settings: TrackingSettings): string {
  return text.replace(TEXT_URL, (match) => {
    // Punctuation that ends a sentence is not part of the link ("see https://a.example/x.").
    const url = match.replace(TRAILING_PUNCTUATION, '');
    const rest = match.slice(url.length);
    if (!isTrackable(url, urls)) return match;
    const target = utmTarget(url, settings.utm);
    return (settings.trackClicks ? urls.click(target) : target) + rest;
  });
}

/**
 * The headers of one recipient's message: one-click unsubscribe (RFC 8058: an https link and the
 * `List-Unsubscribe-Post` header; a mailto alternative per RFC 2369 whose subject carries the
 * recipient's signed token: inbound/addresses.ts) and the recipient's opaque token for events coming
 * back (the mail provider's webhook).
 */
export function campaignHeaders(
  urls: TrackingUrls,
  recipientToken: string,
  unsubscribeMailto: string | null,
): Record<string, string> {
  const unsubscribe = [`<${urls.unsubscribe}>`];
  if (unsubscribeMailto) unsubscribe.push(`<${unsubscribeMailto}>`);
  return {
    'List-Unsubscribe': unsubscribe.join(', '),
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    'X-Recipient-Id': recipientToken,
  };
}

/**
 * The headers every message of a campaign shares, for mailbox providers' list handling and feedback
 * loops: List-Id (RFC 2919: the community's name as the phrase when it is plain ASCII, and
 * `<tenant id>.<platform domain>`, one list per community) and Feedback-ID (Gmail's feedback loop:
 * campaign, tenant and the platform's domain as the sender id).
 */
export function campaignListHeaders(
  campaign: { id: string; tenantId: string },
  communityName: string,
  platformDomain: string,
): Record<string, string> {
  const listId = `<${campaign.tenantId}.${platformDomain}>`;
  const name = communityName.replace(/[\r\n]+/g, ' ').trim();
  const phrase = /^[\x20-\x7e]+$/.test(name) ? `"${name.replace(/["\\]/g, '\\$&')}" ` : '';
  return {
    'List-Id': `${phrase}${listId}`,
    'Feedback-ID': `${campaign.id}:${campaign.tenantId}:${platformDomain}`,
  };
}
