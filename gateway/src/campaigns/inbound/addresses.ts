/**
 * The addresses mail comes back to (docs/sending.md, "Bounces and complaints"):
 *
 * - VERP: each campaign message's envelope sender (SMTP MAIL FROM, RFC 5321 section 4.1.1.2) is
 *   `bounce-<token>@<BOUNCE_DOMAIN>`, the token naming the recipient row, signed for bounces
 *   (tracking/recipient-token.ts). A receiving server sends its bounce (RFC 3464) to that address, and
 *   many feedback loops their complaints (RFC 5965); the address alone says whose message it was.
 * - The mailto of List-Unsubscribe (RFC 2369): `UNSUBSCRIBE_MAILBOX` with the subject
 *   `unsubscribe-<token>`, the token signed for unsubscribing.
 *
 * The From header is the campaign's as before; the receiving server writes the envelope sender into
 * Return-Path.
 */
import type { CampaignsConfig } from '../../config';
import { recipientOfSignedToken, signedRecipientToken } from '../tracking/recipient-token';

type Addressing = Pick<CampaignsConfig, 'trackingSecret' | 'bounceDomain' | 'unsubscribeMailbox'>;

const VERP_PREFIX = 'bounce-';
const UNSUBSCRIBE_PREFIX = 'unsubscribe-';

/** The envelope sender of recipient row `id`'s message. */
export function verpAddress(c: Addressing, id: number): string {
  return `${VERP_PREFIX}${signedRecipientToken(c.trackingSecret, 'bounce', id)}@${c.bounceDomain}`;
}

/** The recipient row a VERP address names, or null when it is not one of ours (domain, form or signature). */
export function recipientOfVerp(c: Addressing, address: string): number | null {
  const at = address.lastIndexOf('@');
  if (at < 0 || address.slice(at + 1).toLowerCase() !== c.bounceDomain) return null;
  const local = address.slice(0, at).toLowerCase();
  if (!local.startsWith(VERP_PREFIX)) return null;
  return recipientOfSignedToken(c.trackingSecret, 'bounce', local.slice(VERP_PREFIX.length));
}

/** Whether `address` is the List-Unsubscribe mailbox. */
export function isUnsubscribeMailbox(c: Addressing, address: string): boolean {
  return c.unsubscribeMailbox !== '' && address.toLowerCase() === c.unsubscribeMailbox;
}

/** List-Unsubscribe's mailto for recipient row `id` (null without a mailbox). */
export function unsubscribeMailto(c: Addressing, id: number): string | null {
  if (!c.unsubscribeMailbox) return null;
  return `mailto:${c.unsubscribeMailbox}?subject=${UNSUBSCRIBE_PREFIX}${signedRecipientToken(c.trackingSecret, 'unsubscribe', id)}`;
}

/**
 * The recipient row an unsubscribe mail's subject names (`unsubscribe-<token>`, anywhere in the subject:
 * a mail client may add "Re:" or the like), or null when there is no valid token.
 */
export function recipientOfUnsubscribeSubject(c: Addressing, subject: string): number | null {
  const match = /unsubscribe-([a-z2-7]{39})(?![a-z2-7])/i.exec(subject.slice(0, 1000));
  return match?.[1] ? recipientOfSignedToken(c.trackingSecret, 'unsubscribe', match[1]) : null;
}
