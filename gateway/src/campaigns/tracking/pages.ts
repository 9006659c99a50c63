/**
 * The public pages of a campaign e-mail's links (spec section 2, engagement/emails: "a one-click
 * unsubscribe endpoint and an unsubscribe page with confirmation and resubscribe"): plain HTML with no
 * script, every value escaped, the public pages' stylesheet, served under a CSP that runs nothing.
 */
import { escapeHtml, htmlPage } from '../../onboarding/index';

/** The policy of these pages: the stylesheet, forms posting back here, nothing else. */
export const TRACKING_PAGE_CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The address as shown on the page: the first character of the mailbox and its domain
 * (`a•••@example.com`), so a forwarded link does not show the whole address to whoever opens it.
 */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf('@');
  if (at <= 0) return '•••';
  return `${address.slice(0, 1)}•••${address.slice(at)}`;
}

function card(heading: string, body: string): string {
  return htmlPage(heading, `<main class="card message">\n<h1>${escapeHtml(heading)}</h1>\n${body}\n</main>`);
}

function form(action: string, label: string): string {
  return `<form method="post" action="${escapeHtml(action)}"><button type="submit">${escapeHtml(label)}</button></form>`;
}

export interface UnsubscribePage {
  community: string;
  address: string;
  /** The path the page was served at (the forms post to it). */
  path: string;
}

/** The confirmation page: who is unsubscribed from what, and the button. */
export function unsubscribeConfirmPage(p: UnsubscribePage): string {
  return card(
    'Unsubscribe',
    `<p>Stop receiving e-mails from ${escapeHtml(p.community)} at ${escapeHtml(maskAddress(p.address))}?</p>
${form(p.path, 'Unsubscribe')}`,
  );
}

/** After the unsubscribe: confirmed, and a way back. */
export function unsubscribedPage(p: UnsubscribePage): string {
  return card(
    'You are unsubscribed',
    `<p>${escapeHtml(maskAddress(p.address))} will no longer receive e-mails from ${escapeHtml(p.community)}.</p>
<p>Unsubscribed by mistake?</p>
${form(`${p.path}/resubscribe`, 'Resubscribe')}`,
  );
}

/** After the resubscribe (or when it cannot be done: the address bounced or complained). */
export function resubscribedPage(p: UnsubscribePage, done: boolean): string {
  return done
    ? card(
        'You are subscribed again',
        `<p>${escapeHtml(maskAddress(p.address))} will receive e-mails from ${escapeHtml(p.community)} again.</p>`,
      )
    : card(
        'We could not subscribe you again',
        `<p>${escapeHtml(maskAddress(p.address))} is not unsubscribed, or can no longer receive e-mails from ${escapeHtml(p.community)}.</p>`,
      );
}

/** A link that is not one we made (forged, cut short, or for another recipient). */
export function invalidLinkPage(): string {
  return card('This link is not valid', '<p>Please check that you opened the whole link from the e-mail.</p>');
}

/** A view-in-browser link whose e-mail cannot be shown any more (its template was deleted). */
export function unavailablePage(): string {
  return card('This e-mail is no longer available', '<p>The e-mail cannot be shown in the browser any more.</p>');
}
