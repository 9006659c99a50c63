import { api, consoleStore, Tenant } from '@console/shared';

export const NO_BILLING_TITLE = 'Contact your account manager';
export const NO_BILLING_TEXT =
  "We aren't able to change your plan because you aren't set up for automated billing. Please contact your account manager to discuss your options.";

/**
 * Upgrade pressed (spec section 4): with a billing customer id the plan picker opens; without one
 * the 'Contact your account manager' dialog. Until the plan picker lands (billing issue) the billing
 * page is where plans change.
 */
export async function startUpgrade(goTo: (path: string) => void): Promise<void> {
  const store = consoleStore.getState();
  const tenant = await api.get('/v1/tenants/current', Tenant);
  store.closeUpgrade();
  if (!tenant.stripe_customer_id) {
    store.showInfo({ title: NO_BILLING_TITLE, html: NO_BILLING_TEXT });
    return;
  }
  goTo('/account/billing');
}
