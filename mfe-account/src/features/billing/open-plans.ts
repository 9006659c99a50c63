/**
 * 'Change plan' (spec section 4): with automated billing the shell's plan picker opens, marking the
 * current price; without it the 'Contact your account manager' dialog. Both go through the shared
 * store (a remote cannot import the shell, which hosts the dialogs).
 */
import { consoleStore } from '@console/shared';
import { NO_BILLING_TEXT, NO_BILLING_TITLE, type BillingOverview } from '@console/shared/contracts';

export function changePlan({ billing, priceId }: Pick<BillingOverview, 'billing' | 'priceId'>): void {
  const store = consoleStore.getState();
  if (billing) store.openPlans({ currentPriceId: priceId });
  else store.showInfo({ title: NO_BILLING_TITLE, html: NO_BILLING_TEXT });
}
