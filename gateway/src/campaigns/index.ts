import type { FastifyPluginAsync } from 'fastify';
import { logRoutes } from './log/routes';
import { mailEventRoutes } from './tracking/mail-events';
import { trackingRoutes } from './tracking/routes';

/**
 * Campaigns (spec section 2: engagement/emails, engagement/emails/compose/:id?,
 * engagement/emails/log/:id): drafts composed in the console, their audience counted and taken when
 * sending starts, delivery on the job runner exactly once per recipient, tracking (opens, clicks,
 * unsubscribes), events from the mail provider, the delivery log and plan usage.
 *
 * Layout of this area:
 * - compose API and lifecycle (routes.ts, campaign-store.ts, campaign-wire.ts, lifecycle.ts),
 *   plan usage (usage.ts, usage-routes.ts, usage-notices.ts);
 * - audience (audience.ts): the one query that counts and snapshots;
 * - sending (sender/): the send job, the SMTP or outbox transport, rate limits, retries;
 * - tracking (tracking/): signed per-recipient links, what is added to each message, the public
 *   open/click/unsubscribe/view endpoints and the mail provider's webhook;
 * - the delivery log (log/): figures, chart, recipients, events, links, CSV export.
 */
export const campaignsArea: FastifyPluginAsync = async (app) => {
  // Each part registers its routes here.
  // Tracking: public (no session, no /v1 prefix), and the mail provider's webhook (signed body).
  await app.register(trackingRoutes);
  await app.register(mailEventRoutes);
  // The delivery log (permission view_engagement_emails).
  await app.register(logRoutes, { prefix: '/v1/campaigns' });
};

// What other areas use from this one.
export { campaignStats } from './campaign-stats';
export { emailAllowance, emailUsageOf } from './usage';
