/**
 * What the billing routes need from a payment provider. The local provider (local-provider.ts) keeps
 * everything in the database and is the default; a Stripe provider can implement the same interface
 * later (price ids are the catalogue's, the portal is Stripe's, charges are Stripe invoices).
 *
 * Every method takes the caller's tenant; tenants without a billing customer (no stripe_customer_id)
 * get a 400 with the spec's no-billing text from everything but the overview.
 */
import type { BillingOverview, ChangeResult, ChangeSummary, Plan } from '../../contracts';
import { NO_BILLING_TEXT, PAYMENT_FAILED_MESSAGE } from '../../contracts';
import { badRequest, HttpError } from '../../errors';

export const ALREADY_ON_PLAN = 'You are already on this plan.';
export const UNKNOWN_PRICE = 'This price does not exist.';
export const RETURN_URL_INVALID = 'Use an address of the console.';

/** 400 with the spec's no-billing text (section 8), the one the console's dialog shows. */
export const noBilling = () => badRequest(NO_BILLING_TEXT);
export const unknownPrice = () => badRequest(UNKNOWN_PRICE);
/** 402 with the spec's payment failure message (the console links 'payment method' to the portal). */
export const paymentFailed = () => new HttpError(402, PAYMENT_FAILED_MESSAGE);

export interface ChangeOptions {
  /** A client's Idempotency-Key: a second request with the same key answers the first one's result. */
  idempotencyKey?: string | null;
}

export interface BillingProvider {
  /** The plans and prices the console offers. */
  catalogue(): Promise<Plan[]>;
  /** The billing page: plan, price, period, next invoice, scheduled change, payment method, invoices. */
  overview(tenantId: string): Promise<BillingOverview>;
  /** What changing to `priceId` would cost now (upgrade) or from the period end on (downgrade). */
  previewChange(tenantId: string, priceId: string): Promise<ChangeSummary>;
  /**
   * Changes the plan now and charges the prorated amount (an upgrade). Idempotent: a duplicate changes
   * and charges nothing more and answers the same result. A downgrade is handed to scheduleChange.
   * A declined payment changes nothing and throws paymentFailed().
   */
  applyChange(tenantId: string, priceId: string, options?: ChangeOptions): Promise<ChangeResult>;
  /** Schedules a downgrade for the end of the current period (idempotent). */
  scheduleChange(tenantId: string, priceId: string): Promise<ChangeResult>;
  /** Cancels a scheduled change; false when there was none. */
  cancelScheduled(tenantId: string): Promise<boolean>;
  /** Where the browser manages the payment method; it comes back to `returnUrl` (already checked). */
  portalUrl(tenantId: string, returnUrl: string): Promise<string>;
  /** Applies scheduled changes and renewals that are due (a periodic task calls it). */
  applyDueChanges(): Promise<number>;
}
