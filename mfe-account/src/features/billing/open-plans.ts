/**
 * 'Change plan' (spec section 4): the shared upgrade decision, marking the current price in the plan
 * picker. The overview's `billing` is whether the tenant has a billing customer id.
 */
import { continueUpgrade } from '@console/shared/session';
import type { BillingOverview } from '@console/shared/contracts';

export function changePlan({ billing, priceId }: Pick<BillingOverview, 'billing' | 'priceId'>): void {
  continueUpgrade(billing, { currentPriceId: priceId });
}
