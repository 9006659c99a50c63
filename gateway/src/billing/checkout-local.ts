/**
 * The local checkout provider (the default): the hosted payment page is the gateway's own
 * `/billing/checkout/<signed token>` (routes/checkout.ts renders it with checkout-page.ts), where the
 * test card 4242 4242 4242 4242 pays and 4000 0000 0000 0002 is declined, as with Stripe's test cards.
 * No card data is kept: a payment only records the customer id and the card's label.
 */
import { randomBytes } from 'node:crypto';
import type { Config } from '../config';
import { CARD_DECLINED } from '../contracts';
import type { CheckoutOrder, CheckoutProvider, PaymentConfirmation } from './checkout-provider';
import { signCheckoutToken } from './checkout-token';
import { WORKING_CARD } from './providers/local-provider';

export const CHECKOUT_PAGE_PREFIX = '/billing/checkout/';

export interface CardInput {
  card_number: string;
  expiry: string;
  cvc: string;
}
export type CardField = keyof CardInput;

export type CardResult =
  | { kind: 'paid'; payment: PaymentConfirmation }
  | { kind: 'declined'; message: string }
  | { kind: 'invalid'; errors: Partial<Record<CardField, string>> };

/** The one card number that pays; every other valid number (4000 0000 0000 0002 among them) is declined. */
const PAYS = '4242424242424242';

/** The Luhn check digit test every card number passes. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** Field errors of a card form (empty when it reads as a card); `now` decides whether it expired. */
export function cardErrors(card: CardInput, now: Date): Partial<Record<CardField, string>> {
  const errors: Partial<Record<CardField, string>> = {};
  const digits = card.card_number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) errors.card_number = 'Your card number is invalid.';
  const expiry = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(card.expiry.trim());
  const month = expiry ? Number(expiry[1]) : 0;
  const year = expiry?.[2] ? (expiry[2].length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2])) : 0;
  if (!expiry || month < 1 || month > 12) {
    errors.expiry = "Your card's expiration date is invalid.";
  } else if (year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) {
    errors.expiry = 'Your card has expired.';
  }
  if (!/^\d{3,4}$/.test(card.cvc.trim())) errors.cvc = "Your card's security code is invalid.";
  return errors;
}

export class LocalCheckoutProvider implements CheckoutProvider {
  constructor(
    private readonly config: Pick<Config, 'jwtSecret' | 'onboarding'>,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async paymentPageUrl(order: CheckoutOrder): Promise<string> {
    const token = signCheckoutToken(this.config.jwtSecret, {
      sessionId: order.sessionId,
      expiresAt: order.expiresAt.getTime(),
    });
    return `${this.config.onboarding.publicUrl}${CHECKOUT_PAGE_PREFIX}${token}`;
  }

  /** Charges the test card: only 4242 4242 4242 4242 pays; any other valid card number is declined. */
  charge(card: CardInput): CardResult {
    const errors = cardErrors(card, this.clock());
    if (Object.keys(errors).length > 0) return { kind: 'invalid', errors };
    const digits = card.card_number.replace(/[\s-]/g, '');
    if (digits !== PAYS) return { kind: 'declined', message: CARD_DECLINED };
    return {
      kind: 'paid',
      payment: { customerId: `cus_local_${randomBytes(12).toString('hex')}`, paymentMethodLabel: WORKING_CARD },
    };
  }
}
