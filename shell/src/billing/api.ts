import { api } from '@console/shared/api';
import { navigation } from '@console/shared/session';
import { ChangeResult, ChangeSummary, PlanCatalogue, PortalResponse, type Plan } from '@console/shared/contracts';

/** Billing calls of spec section 7, parsed with the shared contracts. */

export const billingKeys = {
  plans: ['billing', 'plans'],
  summary: (priceId: string) => ['billing', 'change-summary', priceId],
  /** Prefix of the current tenant's query (the overview keys it ['tenant', 'current', tenantId]). */
  currentTenant: ['tenant', 'current'],
};

export async function fetchPlans(): Promise<Plan[]> {
  const catalogue = await api.get('/v1/plans', PlanCatalogue);
  return catalogue.records;
}

export function fetchChangeSummary(priceId: string): Promise<ChangeSummary> {
  return api.get(`/v1/billing/change-summary/${encodeURIComponent(priceId)}`, ChangeSummary);
}

/** Executes the plan change; a failed payment is a 402. */
export function changePlan(priceId: string): Promise<ChangeResult> {
  return api.get(`/v1/billing/change/${encodeURIComponent(priceId)}`, ChangeResult);
}

/** Asks for a billing portal session that returns here, then leaves for it. */
export async function openBillingPortal(returnUrl: string): Promise<void> {
  const { url } = await api.post('/v1/billing/access-portal', PortalResponse, { return_url: returnUrl });
  navigation.assign(url);
}
