import type { FastifyPluginAsync } from 'fastify';
import { planRoutes } from './plans-routes';
import { billingRoutes } from './routes';
import { billingWebhookRoutes } from './webhook-routes';
import { publicPlanRoutes } from './plans-public-routes';
import { checkoutRoutes } from './checkout-routes';

export { createBillingProvider, type BillingSetup } from './providers/create-provider';
export type { BillingProvider } from './providers/provider';

/** Billing: the plan catalogue, a tenant's billing, the payment provider's webhook and checkout. */
export const billingArea: FastifyPluginAsync = async (app) => {
  await app.register(planRoutes, { prefix: '/v1/plans' });
  await app.register(billingRoutes);
  if (app.deps.config.billing.stripe) await app.register(billingWebhookRoutes);
  await app.register(publicPlanRoutes);
  await app.register(checkoutRoutes);
};

// What other areas use from this one.
export { registerBillingJobs } from './due-changes-job';
