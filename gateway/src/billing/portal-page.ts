/**
 * The local billing portal page (the local provider's stand-in for a payment provider's portal):
 * server-rendered, every text escaped, no script, styles from the public stylesheet. Its forms post
 * back to the page itself (CSP form-action 'self').
 */
import { escapeHtml, htmlPage } from '../onboarding';

export const PORTAL_CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const PORTAL_ACTIONS = { working: 'Use a working card', failing: 'Make payments fail' } as const;
export type PortalAction = keyof typeof PORTAL_ACTIONS;
export const RETURN_LABEL = 'Return to the console';
export const INVALID_PORTAL_LINK =
  'This billing portal link is invalid or has expired. Open the portal again from the console.';

function layout(title: string, body: string): string {
  return htmlPage(title, `<main class="card message">\n${body}\n</main>`);
}

export interface PortalPageData {
  tenantName: string;
  paymentMethod: { label: string; failing: boolean } | null;
  /** The form action (this page's path). */
  action: string;
  returnUrl: string;
  /** A line after an update ('Payment method updated.'). */
  notice?: string;
}

export function portalPage(d: PortalPageData): string {
  const method = d.paymentMethod
    ? `${escapeHtml(d.paymentMethod.label)}${d.paymentMethod.failing ? ' — payments with this card are declined' : ''}`
    : 'No payment method';
  const form = (action: PortalAction) => `<form class="signup" method="post" action="${escapeHtml(d.action)}">
<input type="hidden" name="action" value="${action}">
<button type="submit">${escapeHtml(PORTAL_ACTIONS[action])}</button>
</form>`;
  return layout(
    'Billing portal',
    `<h1>Billing portal</h1>
<p>${escapeHtml(d.tenantName)}</p>
${d.notice ? `<p class="hint" role="status">${escapeHtml(d.notice)}</p>\n` : ''}<h2>Payment method</h2>
<p>${method}</p>
${form('working')}
${form('failing')}
<p><a href="${escapeHtml(d.returnUrl)}">${escapeHtml(RETURN_LABEL)}</a></p>`,
  );
}

export function invalidPortalPage(): string {
  return layout('Billing portal', `<h1>Billing portal</h1>\n<p>${escapeHtml(INVALID_PORTAL_LINK)}</p>`);
}
