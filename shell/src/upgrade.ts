import { api, consoleStore, NO_BILLING_TEXT, NO_BILLING_TITLE, Tenant } from '@console/shared';

/**
 * Upgrade pressed (spec section 4): with a billing customer id the plan picker opens (hosted by the
 * shell, see billing/plan-change-flow); without one the 'Contact your account manager' dialog.
 */
export async function startUpgrade(): Promise<void> {
  const store = consoleStore.getState();
  const tenant = await api.get('/v1/tenants/current', Tenant);
  store.closeUpgrade();
  if (!tenant.stripe_customer_id) {
    store.showInfo({ title: NO_BILLING_TITLE, html: NO_BILLING_TEXT });
    return;
  }
  store.openPlans();
}
