/**
 * The per-recipient addresses of a campaign e-mail (open pixel, click redirects, unsubscribe,
 * view in browser), signed so that nobody can forge one for another recipient and a click redirect
 * goes only to a link that was in that recipient's e-mail (never an open redirect).
 *
 * A recipient token is `<recipient id base36>.<signature>`; a click carries the target in `u` and a
 * signature over the recipient and that exact URL. Signatures are HMAC-SHA256 (first 16 bytes,
 * base64url) under the tracking secret, one key per purpose. They do not expire: unsubscribe links
 * must keep working in old e-mails (RFC 8058 asks for the one-click link to stay valid).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type LinkPurpose = 'open' | 'click' | 'unsubscribe' | 'view';

/** Public paths, under the tracking URL (TRACKING_URL, default the gateway's public URL). */
export const TRACKING_PATHS = {
  open: '/email/open',
  click: '/email/click',
  unsubscribe: '/email/unsubscribe',
  view: '/email/view',
} as const;

/**
 * The key of a purpose, derived from the secret once: a send signs four or more links per recipient,
 * and deriving the key each time would double their HMACs' cost (bench/README.md, "Tracking links").
 */
const purposeKeys = new Map<string, Buffer>();

function purposeKey(secret: string, purpose: LinkPurpose): Buffer {
  const id = `${purpose}\n${secret}`;
  let key = purposeKeys.get(id);
  if (!key) {
    key = createHmac('sha256', secret).update(`campaign-link:${purpose}`).digest();
    if (purposeKeys.size >= 64) purposeKeys.clear(); // secrets change rarely: a bound, not a policy
    purposeKeys.set(id, key);
  }
  return key;
}

function signature(secret: string, purpose: LinkPurpose, payload: string): string {
  return createHmac('sha256', purposeKey(secret, purpose))
    .update(payload)
    .digest()
    .subarray(0, 16)
    .toString('base64url');
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The recipient id written in a token: a positive safe integer in its canonical base-36 form only (the
 * form `recipientToken` writes: no leading zero, lower case), so each recipient has exactly one token per
 * purpose and `01.<sig>` is not recipient 1.
 */
function parseRecipientId(text: string): number | null {
  if (!/^[1-9a-z][0-9a-z]{0,12}$/.test(text)) return null;
  const id = parseInt(text, 36);
  if (!Number.isSafeInteger(id) || id <= 0 || id.toString(36) !== text) return null;
  return id;
}

const TOKEN = /^([0-9a-z]{1,13})\.([A-Za-z0-9_-]{22})$/;

/** The token of one recipient for one purpose. */
export function recipientToken(secret: string, purpose: LinkPurpose, recipientId: number): string {
  const id = recipientId.toString(36);
  return `${id}.${signature(secret, purpose, id)}`;
}

/** The recipient id of a genuine token of `purpose`; null otherwise. */
export function verifyRecipientToken(secret: string, purpose: LinkPurpose, token: string): number | null {
  const match = TOKEN.exec(token);
  if (!match?.[1] || !match[2]) return null;
  const id = parseRecipientId(match[1]);
  if (id === null) return null;
  return same(signature(secret, purpose, match[1]), match[2]) ? id : null;
}

/** The signature of a click on `url` by a recipient. */
function clickSignature(secret: string, recipientId: number, url: string): string {
  return signature(secret, 'click', `${recipientId.toString(36)}\n${url}`);
}

export interface TrackingUrls {
  open: string;
  unsubscribe: string;
  view: string;
  click(url: string): string;
}

/** Every tracking address of one recipient. */
export function trackingUrls(base: string, secret: string, recipientId: number): TrackingUrls {
  const token = (purpose: LinkPurpose) => recipientToken(secret, purpose, recipientId);
  const id = recipientId.toString(36);
  return {
    open: `${base}${TRACKING_PATHS.open}/${token('open')}.gif`,
    unsubscribe: `${base}${TRACKING_PATHS.unsubscribe}/${token('unsubscribe')}`,
    view: `${base}${TRACKING_PATHS.view}/${token('view')}`,
    click: (url) =>
      `${base}${TRACKING_PATHS.click}/${id}.${clickSignature(secret, recipientId, url)}?u=${encodeURIComponent(url)}`,
  };
}

/** The recipient and target of a genuine click address (`token` is the path part, `url` the `u` parameter). */
export function verifyClick(secret: string, token: string, url: string): number | null {
  const match = TOKEN.exec(token);
  if (!match?.[1] || !match[2]) return null;
  const id = parseRecipientId(match[1]);
  if (id === null) return null;
  return same(clickSignature(secret, id, url), match[2]) ? id : null;
}
