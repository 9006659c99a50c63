import { Tenant } from '@console/shared/contracts';
import { api } from '@console/shared/api';
import { continueUpgrade } from '@console/shared/session';

/**
 * 'Upgrade Your Plan' pressed in the upgrade dialog (spec section 4): the tenant is fetched for its
 * billing customer id, then the shared upgrade decision opens the plan picker (hosted by the shell,
 * see billing/plan-change-flow) or the 'Contact your account manager' dialog.
 */
export async function startUpgrade(): Promise<void> {
  const tenant = await api.get('/v1/tenants/current', Tenant);
  continueUpgrade(tenant);
}
