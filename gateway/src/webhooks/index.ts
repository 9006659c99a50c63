import type { Area } from '../area';
import { recipientToken, setDeliveryEventHook } from '../campaigns/index';
import type { Deps } from '../deps';
import type { WebhookContext } from './context';
import { EndpointStore } from './endpoint-store';
import { webhookHook } from './hook';
import { registerWebhookJobs } from './jobs';
import { EndpointPresence } from './presence';
import { webhookRoutes } from './routes';

declare module '../deps' {
  interface Deps {
    /** Outgoing webhooks' shared state (built with the job registration: one per composition root). */
    webhooks?: WebhookContext;
  }
}

function contextOf(deps: Deps): WebhookContext {
  deps.webhooks ??= {
    db: deps.db,
    jobs: deps.jobs,
    config: deps.config.webhooks,
    policy: { allowLoopback: deps.config.webhooks.allowLoopback },
    presence: new EndpointPresence(deps.db),
    recipientToken: (id) => recipientToken(deps.config.campaigns.trackingSecret, id),
    clock: deps.clock,
    log: deps.log,
  };
  return deps.webhooks;
}

/**
 * Outgoing webhooks (`/v1/webhooks/endpoints`; account/api-access/webhooks): the tenant's endpoints, the
 * delivery events of its messages signed in the Standard Webhooks format, retries for a day, the log
 * of attempts. docs/webhooks.md.
 */
export const webhooksArea: Area = {
  routes: async (app) => {
    const ctx = contextOf(app.deps);
    const endpoints = new EndpointStore(ctx.db, ctx.policy, (tenantId) => ctx.presence.forget(tenantId));
    await app.register(webhookRoutes(ctx, endpoints), { prefix: '/v1/webhooks/endpoints' });
  },
  jobs: (jobs, deps) => {
    const ctx = contextOf(deps);
    const drain = registerWebhookJobs(jobs, ctx, deps.background, deps.config.jobs.pollSeconds);
    setDeliveryEventHook(deps.db, webhookHook(ctx, drain));
  },
};
