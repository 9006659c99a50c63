import type { Area } from '../area';
import { planRoutes } from './plans-routes';
import { billingRoutes } from './routes';
import { billingWebhookRoutes } from './webhook-routes';
import { publicPlanRoutes } from './plans-public-routes';
import { checkoutRoutes } from './checkout-routes';
import { registerBillingJobs } from './due-changes-job';
import type { BillingSetup } from './providers/create-provider';

declare module '../deps' {
  interface Deps {
    /** The payment provider (local or Stripe) chosen from config (billing/providers/create-provider.ts). */
    billing: BillingSetup;
  }
}

/** Billing: the plan catalogue, a tenant's billing, the payment provider's webhook and checkout. */
export const billingArea: Area = {
  routes: async (app) => {
    await app.register(planRoutes, { prefix: '/v1/plans' });
    await app.register(billingRoutes);
    if (app.deps.config.billing.stripe) await app.register(billingWebhookRoutes);
    await app.register(publicPlanRoutes);
    await app.register(checkoutRoutes);
  },
  // Scheduled downgrades and renewals, each minute.
  jobs: (jobs, { billing, log }) => registerBillingJobs(jobs, billing.provider, log),
};

// What the composition root builds once (src/composition.ts) and other areas use from this one.
export { createBillingProvider, type BillingSetup } from './providers/create-provider';
export type { BillingProvider } from './providers/provider';
// The plan catalogue and its arithmetic, for the demo data (src/seed.ts).
export { CATALOGUE, cataloguePriceRows, smartContractLimit } from './catalogue';
export { periodEnd, taxCents } from './proration';
