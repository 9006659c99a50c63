import type { Area } from '../area';
import { registerCampaignJobs } from './jobs';
import { registerInboundReceiver } from './inbound/receiver';
import { registerTemplateUsage } from '../templates/index';
import { logRoutes } from './log/routes';
import { campaignRoutes } from './routes';
import { scheduledTemplateUsage } from './template-usage';
import { mailEventRoutes } from './tracking/mail-events';
import { trackingRoutes } from './tracking/routes';
import { usageRoutes } from './usage-routes';

/**
 * Campaigns (spec section 2: engagement/emails, engagement/emails/compose/:id?,
 * engagement/emails/log/:id): drafts composed in the console, their audience counted and taken when
 * sending starts, delivery on the job runner exactly once per recipient, tracking (opens, clicks,
 * unsubscribes), events from the mail provider, the delivery log and plan usage.
 *
 * Layout of this area:
 * - compose API and lifecycle (routes.ts, campaign-store.ts, campaign-wire.ts, campaign-rules.ts,
 *   lifecycle.ts, campaign-preview.ts), plan usage (usage.ts, usage-routes.ts, usage-notices.ts);
 * - audience (audience.ts): the one query that counts and snapshots;
 * - sending (sender/): the send job, the SMTP or outbox transport, rate limits, retries;
 * - tracking (tracking/): signed per-recipient links, what is added to each message, the public
 *   open/click/unsubscribe/view endpoints and the mail provider's webhook;
 * - bounces by mail (inbound/): the per-recipient envelope senders (VERP), the inbound SMTP receiver
 *   and the rule of what a delivery status or complaint report says;
 * - the delivery log (log/): figures, chart, recipients, events, links, CSV export.
 */
export const campaignsArea: Area = {
  routes: async (app) => {
    // A template used by a scheduled e-mail cannot be deleted (templates' delete rule).
    registerTemplateUsage('campaigns', scheduledTemplateUsage);
    // Compose and lifecycle, and plan usage (permission view_engagement_emails; usage: any tenant user).
    await app.register(campaignRoutes, { prefix: '/v1/campaigns' });
    await app.register(usageRoutes, { prefix: '/v1/usage' });
    // Tracking: public (no session, no /v1 prefix), and the mail provider's webhook (signed body).
    await app.register(trackingRoutes);
    await app.register(mailEventRoutes);
    // The delivery log (permission view_engagement_emails).
    await app.register(logRoutes, { prefix: '/v1/campaigns' });
  },
  // The send queue (jobs.ts), and at start the campaigns that were sending carry on; the inbound SMTP
  // receiver of bounces, complaints and mailto unsubscribes (inbound/receiver.ts) where the workers run.
  jobs: (jobs, deps) => {
    registerCampaignJobs(jobs, deps.db, deps.config, deps.log, deps.mailer);
    registerInboundReceiver(jobs, deps);
  },
};

// What other areas use from this one.
export { campaignStats } from './campaign-stats';
export {
  emailAllowance,
  emailAllowances,
  emailsSentBetween,
  emailUsageOf,
  periodSentSql,
  type EmailAllowance,
} from './usage';
export { enqueueCampaign, enqueueCarrier } from './sender/queue';
export { carrierClaiming, registerCarrierHooks, type CarrierHooks, type CommitCounts } from './sender/carrier';
export { deliveryLogRoutes } from './log/routes';
export { ofSource, type LogSource } from './log/log-store';
export { volumeRefusal } from './usage';
export { GroupCommit } from './sender/group-commit';
export { recipientEvents } from './log/log-store';
export { checkUsageNotices } from './usage-notices';
export { recipientToken } from './tracking/recipient-token';
export {
  setDeliveryEventHook,
  type DeliveryEvent,
  type DeliveryEventHook,
  type DeliveryEventType,
} from './delivery-events';
