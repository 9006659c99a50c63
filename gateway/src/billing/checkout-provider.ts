/**
 * What the checkout (a new customer's first subscription) needs from a payment provider.
 *
 * The console posts the order to POST /v1/checkout; checkout-service.ts validates it and stores a
 * pending checkout session, then asks the provider for its hosted payment page. When the provider
 * confirms the payment, the service's `fulfil` creates the tenant, its owner, billing account,
 * subscription and invoice in one transaction (idempotent per checkout session), and the browser goes
 * back to `${consoleUrl}/checkout/success?session=<id>`.
 *
 * - Local provider (checkout-local.ts, the default): the hosted page is the gateway's own
 *   `/billing/checkout/<signed token>` with a test card form; paying calls `fulfil` directly.
 * - Stripe Checkout (later): `paymentPageUrl` creates a Checkout Session for the catalogue's price id
 *   (`client_reference_id` = the session id, `success_url` = the console's success page, `cancel_url` =
 *   the console's /checkout/:price_id) and answers its `url`; the `checkout.session.completed` webhook
 *   calls `fulfil` with the Stripe customer id.
 */
import type { StoredPrice } from './catalogue-store';

/** A stored, pending checkout, as a provider sees it. */
export interface CheckoutOrder {
  sessionId: string;
  price: StoredPrice;
  email: string;
  tenantName: string;
  /** The checkout cannot be paid after this. */
  expiresAt: Date;
}

/** A payment the provider confirmed: who the customer is there and the card it keeps on file. */
export interface PaymentConfirmation {
  /** The provider's customer id (`tenants.stripe_customer_id`): 'cus_local_…' for the local provider. */
  customerId: string;
  /** The payment method label shown on the billing page ('Visa •••• 4242'), when known. */
  paymentMethodLabel: string | null;
}

export interface CheckoutProvider {
  /** The hosted payment page the browser goes to for this order. */
  paymentPageUrl(order: CheckoutOrder): Promise<string>;
}
