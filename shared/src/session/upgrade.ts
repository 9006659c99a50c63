import { NO_BILLING_TEXT, NO_BILLING_TITLE } from '@console/shared/billing';
import { consoleStore, type PlansDialogRequest } from './store';

/** The step after Upgrade is pressed (spec section 4, upgrade flow). */
export type UpgradeStep = 'plan-picker' | 'contact-account-manager';

/**
 * Spec section 4: with a billing customer id the plan picker opens; without one, the 'Contact your
 * account manager' dialog (spec section 8 text). The one decision every entry point goes through.
 */
export function upgradeStep(hasBillingCustomer: boolean): UpgradeStep {
  return hasBillingCustomer ? 'plan-picker' : 'contact-account-manager';
}

/**
 * Continues the upgrade flow for every entry point: the upgrade dialog's 'Upgrade Your Plan' (reached
 * from locked menu items, locked overview tiles and a direct navigation to a locked route) and the
 * billing page's 'Change plan'. The dialogs live in the shell; remotes reach them through the store.
 */
export function continueUpgrade(hasBillingCustomer: boolean, request: PlansDialogRequest = {}): UpgradeStep {
  const store = consoleStore.getState();
  const step = upgradeStep(hasBillingCustomer);
  store.closeUpgrade();
  if (step === 'plan-picker') store.openPlans(request);
  else store.showInfo({ title: NO_BILLING_TITLE, html: NO_BILLING_TEXT });
  return step;
}
