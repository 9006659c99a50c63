/**
 * The one place the payment provider is chosen (config.billing): Stripe when STRIPE_SECRET_KEY is set,
 * else the local provider. `local` is set only for the local provider: its billing portal page
 * (billing/routes.ts) exists only then (Stripe has its own portal).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Database } from '../../db/index';
import { LocalBillingProvider } from './local-provider';
import type { BillingProvider } from './provider';
import { createStripeClient, StripeBillingProvider } from './stripe-provider';

export interface BillingSetup {
  provider: BillingProvider;
  local: LocalBillingProvider | null;
}

export function createBillingProvider(
  db: Database,
  config: Pick<Config, 'billing' | 'jwtSecret' | 'onboarding'>,
  log: Pick<FastifyBaseLogger, 'warn'> | null = null,
  clock: () => Date = () => new Date(),
): BillingSetup {
  const stripe = config.billing.stripe;
  if (config.billing.provider === 'stripe' && stripe) {
    return { provider: new StripeBillingProvider(db, createStripeClient(stripe), log, clock), local: null };
  }
  const local = new LocalBillingProvider(db, config, clock);
  return { provider: local, local };
}
