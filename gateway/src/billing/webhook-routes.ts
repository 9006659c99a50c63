/**
 * POST /v1/billing/webhook (spec sections 3, 4 and 9): Stripe's events, registered only with the Stripe provider
 * (billing/index.ts). No session: the Stripe-Signature header over the raw body (STRIPE_WEBHOOK_SECRET) is the
 * key; a missing or wrong signature is a 400 and changes nothing.
 *
 * customer.subscription.updated / deleted keep tenants.plan_id in step with Stripe (a scheduled
 * downgrade taking effect, a change made in Stripe's dashboard, a cancelled subscription): the plan is
 * set from the customer's active subscription as Stripe has it (StripeBillingProvider.syncTenantPlan).
 * Other events are acknowledged and ignored. A failure answers 5xx, so Stripe sends the event again.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type Stripe from 'stripe';
import * as z from 'zod/mini';
import { StripeBillingProvider } from './providers/stripe-provider';
import { badRequest } from '../errors';
import { errorResponses } from '../lib/openapi';

export const INVALID_SIGNATURE = 'The webhook signature is invalid.';

const Received = z.object({ received: z.boolean() });

export const billingWebhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config } = app.deps;
  const settings = config.billing.stripe;
  if (!settings) return;
  const billing = app.deps.billing.provider;
  // Registered only with Stripe configured, when the provider built at start is Stripe's (config.ts).
  if (!(billing instanceof StripeBillingProvider)) return;

  // The signature covers the exact bytes Stripe sent: this plugin's JSON bodies stay raw.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  app.post(
    '/v1/billing/webhook',
    {
      schema: {
        tags: ['billing'],
        summary: "Stripe's events (Stripe-Signature)",
        description:
          'No session: signed by Stripe (STRIPE_WEBHOOK_SECRET). customer.subscription.updated and ' +
          ".deleted set the tenant's plan from its Stripe subscription; other events are ignored.",
        response: { 200: Received, ...errorResponses(400) },
      },
    },
    async (req) => {
      const signature = req.headers['stripe-signature'];
      const body: unknown = req.body;
      if (typeof signature !== 'string' || !Buffer.isBuffer(body)) throw badRequest(INVALID_SIGNATURE);
      let event: Stripe.Event;
      try {
        event = billing.webhookEvent(body, signature, settings.webhookSecret);
      } catch {
        throw badRequest(INVALID_SIGNATURE);
      }
      if (event.type === 'customer.subscription.updated' || event.type === 'customer.subscription.deleted') {
        const { customer } = event.data.object;
        const customerId = typeof customer === 'string' ? customer : customer.id;
        const outcome = await billing.syncTenantPlan(customerId);
        req.log.info({ event: event.id, type: event.type, customerId, outcome }, 'stripe webhook: tenant plan synced');
      } else {
        req.log.debug({ event: event.id, type: event.type }, 'stripe webhook: event ignored');
      }
      return { received: true };
    },
  );
};
export default billingWebhookRoutes;
