/**
 * Checkout (spec sections 3, 4 and 9): a new customer subscribes from /checkout/:price_id without a session. The
 * console posts the order and the owner's account, the gateway e-mails the link to the payment
 * provider's hosted page; after payment the browser comes back to /checkout/success?session=<id>, which trades the
 * paid checkout for a session token once.
 */
import * as z from 'zod/mini';
import { PLAN_KEYS } from '@console/shared/access';
import { Email, NewPassword, text } from '@console/shared/contracts/core';
import { BILLING_PERIODS } from './billing';

/** Spec section 5: text inputs hold at most 100 characters. */
const Name = (label: string) =>
  text(100, 'Use at most 100 characters.').check(z.trim(), z.minLength(1, `Enter your ${label}.`));

export const CheckoutBody = z.object({
  price_id: text(100).check(z.minLength(1)),
  tenant_name: text(100, 'Use at most 100 characters.').check(
    z.trim(),
    z.minLength(1, 'Enter the name of your community.'),
  ),
  first_name: Name('first name'),
  last_name: Name('last name'),
  email: Email,
  password: NewPassword,
});
export type CheckoutBody = z.infer<typeof CheckoutBody>;

/**
 * POST /v1/checkout: the same answer whether or not the e-mail already has an account (so it tells
 * nobody which addresses do). The next step arrives by e-mail: the link to the payment page, or, for an
 * address that has an account, a note saying so. `secret` stays in the browser that started the
 * checkout (local storage) and is needed, with `session_id`, for the one sign-in after payment.
 */
export const CheckoutStarted = z.object({ message: z.string(), session_id: z.string(), secret: z.string() });
export type CheckoutStarted = z.infer<typeof CheckoutStarted>;

/** POST /v1/checkout/{id}/complete. */
export const CheckoutCompleteBody = z.object({ secret: text(200).check(z.minLength(1)) });
export type CheckoutCompleteBody = z.infer<typeof CheckoutCompleteBody>;

/** What was bought: the success page's summary. Amount in US dollars for the whole period. */
export const CheckoutSummary = z.object({
  tenant_name: z.string(),
  plan: z.object({ key: z.enum(PLAN_KEYS), name: z.string(), label: z.string() }),
  price_id: z.string(),
  emails: z.string(),
  period: z.enum(BILLING_PERIODS),
  amount: z.number(),
  period_end: z.string(),
});
export type CheckoutSummary = z.infer<typeof CheckoutSummary>;

/** A session token for the new owner (once per paid checkout) and what was bought. */
export const CheckoutCompleted = z.object({ token: z.string(), checkout: CheckoutSummary });
export type CheckoutCompleted = z.infer<typeof CheckoutCompleted>;

/** What the console shows once a checkout has started, whether or not the e-mail has an account. */
export const CHECKOUT_CHECK_MAIL = (email: string) =>
  `We have sent a message to ${email} with the next step. Open the link in it to continue. ` +
  'If it does not arrive within a few minutes, look in your spam folder.';
/** Said to the owner of an address that already has an account (by e-mail; and on a payment page raced by another checkout). */
export const CHECKOUT_EMAIL_TAKEN = 'An account with this e-mail already exists. Sign in instead.';
/** The local provider's test cards. */
export const TEST_CARD_PAYS = '4242 4242 4242 4242';
export const TEST_CARD_DECLINES = '4000 0000 0000 0002';
export const CARD_DECLINED = 'Your card was declined.';
