import { NO_BILLING_TEXT, NO_BILLING_TITLE } from '@console/shared/billing';
import { consoleStore, type PlansDialogRequest } from './store';

/** The step after Upgrade is pressed (spec section 4, upgrade flow). */
export type UpgradeStep = 'plan-picker' | 'contact-account-manager';

/**
 * What an entry point knows about the tenant's billing: the tenant record's billing customer id (the
 * upgrade dialog fetches the tenant) or the billing overview's `billing` (GET /v1/billing answers
 * whether the tenant has one). Both go through the one decision below.
 */
export type BillingCustomerSource = { stripe_customer_id: string | null } | { billing: boolean };

/** Whether the tenant has a billing customer id: a non-blank one (an empty id is none). */
export function hasBillingCustomer(source: BillingCustomerSource): boolean {
  if ('billing' in source) return source.billing;
  return (source.stripe_customer_id ?? '').trim() !== '';
}

/**
 * Spec section 4: with a billing customer id the plan picker opens; without one, the 'Contact your
 * account manager' dialog (spec section 8 text). The one decision every entry point goes through.
 */
export function upgradeStep(source: BillingCustomerSource): UpgradeStep {
  return hasBillingCustomer(source) ? 'plan-picker' : 'contact-account-manager';
}

/**
 * Continues the upgrade flow for every entry point: the upgrade dialog's 'Upgrade Your Plan' (reached
 * from locked menu items, locked overview tiles and a direct navigation to a locked route) and the
 * billing page's 'Change plan'. The dialogs live in the shell; remotes reach them through the store.
 */
export function continueUpgrade(source: BillingCustomerSource, request: PlansDialogRequest = {}): UpgradeStep {
  const store = consoleStore.getState();
  const step = upgradeStep(source);
  store.closeUpgrade();
  if (step === 'plan-picker') store.openPlans(request);
  else store.showInfo({ title: NO_BILLING_TITLE, html: NO_BILLING_TEXT });
  return step;
}
