/**
 * The local provider's hosted checkout page: server-rendered, every text escaped, no script, styles
 * from the public stylesheet. The card form posts back to the page itself; a successful payment
 * redirects (303) to the console, so form-action also allows the console's origin (Chromium applies
 * form-action to the redirect that answers a form).
 */
import { escapeHtml, htmlPage } from '../onboarding';
import { PERIOD_LABELS, TEST_CARD_DECLINES, TEST_CARD_PAYS } from '../contracts';
import type { StoredPrice } from './catalogue-store';
import type { CardField, CardInput } from './checkout-local';
import { dollars } from './proration';

export const CHECKOUT_PAGE_TITLE = 'Pay for your subscription';
export const INVALID_CHECKOUT_LINK =
  'This checkout link is invalid or has expired. Please start again from the console.';
export const CANCEL_LABEL = 'Cancel';

export function checkoutCsp(consoleUrl: string): string {
  let consoleOrigin = '';
  try {
    consoleOrigin = ` ${new URL(consoleUrl).origin}`;
  } catch {
    /* a malformed console URL allows only this page */
  }
  return [
    "default-src 'none'",
    "style-src 'self'",
    "img-src 'self'",
    `form-action 'self'${consoleOrigin}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const MONEY = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });
export const money = (cents: number) => MONEY.format(dollars(cents));

function layout(title: string, body: string, className = 'card'): string {
  return htmlPage(title, `<main class="${className}">\n${body}\n</main>`);
}

export interface CheckoutPageData {
  tenantName: string;
  email: string;
  price: StoredPrice;
  /** The form action (this page's path). */
  action: string;
  /** The console's /checkout/:price_id. */
  cancelUrl: string;
  /** What was typed, shown again after a decline or a field error. */
  card?: Partial<CardInput>;
  errors?: Partial<Record<CardField, string>>;
  /** 'Your card was declined.' */
  message?: string;
}

const FIELDS: { name: CardField; label: string; autocomplete: string; placeholder: string; maxLength: number }[] = [
  {
    name: 'card_number',
    label: 'Card number',
    autocomplete: 'cc-number',
    placeholder: '1234 1234 1234 1234',
    maxLength: 23,
  },
  { name: 'expiry', label: 'Expiration date (MM / YY)', autocomplete: 'cc-exp', placeholder: 'MM / YY', maxLength: 9 },
  { name: 'cvc', label: 'Security code (CVC)', autocomplete: 'cc-csc', placeholder: 'CVC', maxLength: 4 },
];

export function checkoutPage(d: CheckoutPageData): string {
  const { price } = d;
  const errors = d.errors ?? {};
  const firstInvalid = FIELDS.find((f) => errors[f.name])?.name;
  const row = (label: string, value: string) =>
    `<tr><th scope="row">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`;
  const fields = FIELDS.map((f) => {
    const error = errors[f.name];
    const errorId = `${f.name}-error`;
    // The card number is typed again after an error, as on any payment page; expiry is kept.
    const value = f.name === 'expiry' ? (d.card?.expiry ?? '') : '';
    return `<label for="${f.name}">${escapeHtml(f.label)}</label>
<input id="${f.name}" name="${f.name}" inputmode="numeric" autocomplete="${f.autocomplete}" placeholder="${escapeHtml(f.placeholder)}" maxlength="${f.maxLength}" required value="${escapeHtml(value)}"${error ? ` aria-invalid="true" aria-describedby="${errorId}"` : ''}${f.name === firstInvalid ? ' autofocus' : ''}>
${error ? `<p class="error" id="${errorId}">${escapeHtml(error)}</p>` : ''}`;
  }).join('\n');
  return layout(
    CHECKOUT_PAGE_TITLE,
    `<header>
<h1>${escapeHtml(CHECKOUT_PAGE_TITLE)}</h1>
<p class="lead">${escapeHtml(d.tenantName)} · ${escapeHtml(d.email)}</p>
</header>
<h2 id="summary">Order summary</h2>
<table aria-labelledby="summary">
<tbody>
${row('Plan', `${price.plan.name} — ${price.plan.label}`)}
${row('E-mail volume', `${price.emails} e-mails`)}
${row('Billing period', PERIOD_LABELS[price.period])}
${row('Subtotal', money(price.amountCents))}
${row('Tax (0%)', money(0))}
${row('Total due today', money(price.amountCents))}
</tbody>
</table>
<h2>Card</h2>
${d.message ? `<p class="error" role="alert">${escapeHtml(d.message)}</p>\n` : ''}<form class="signup" method="post" action="${escapeHtml(d.action)}" novalidate>
${fields}
<button type="submit">${escapeHtml(`Pay ${money(price.amountCents)}`)}</button>
</form>
<p class="hint">Test payments: ${escapeHtml(TEST_CARD_PAYS)} pays, ${escapeHtml(TEST_CARD_DECLINES)} is declined; any future date and any 3 digits.</p>
<p><a href="${escapeHtml(d.cancelUrl)}">${escapeHtml(CANCEL_LABEL)}</a></p>`,
  );
}

/** A page with one message and a link back (invalid link, expired checkout, e-mail taken meanwhile). */
export function checkoutMessagePage(message: string, back: { href: string; label: string } | null): string {
  return layout(
    CHECKOUT_PAGE_TITLE,
    `<h1>${escapeHtml(CHECKOUT_PAGE_TITLE)}</h1>
<p role="alert">${escapeHtml(message)}</p>${back ? `\n<p><a href="${escapeHtml(back.href)}">${escapeHtml(back.label)}</a></p>` : ''}`,
    'card message',
  );
}
