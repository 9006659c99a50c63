import type { FastifyPluginAsync } from 'fastify';

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
export const campaignsArea: FastifyPluginAsync = async (_app) => {
  // Each part registers its routes here.
};

// What other areas use from this one.
export { campaignStats } from './campaign-stats';
export { emailAllowance, emailUsageOf } from './usage';
