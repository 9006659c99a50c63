import type { Area } from '../area';
import { deliveryLogRoutes, registerCarrierHooks } from '../campaigns/index';
import { requirePermission } from '../auth/index';
import { TransactionalAdminOverview } from '../contracts';
import { bearer, errorResponses } from '../lib/openapi';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { carrierHooks, queuedRefusal } from './carriers';
import { registerTemplateDeleteGuard } from '../templates/index';
import { expireKeys } from './idempotency';
import { templateLogSource } from './messages';
import { transactionalRoutes } from './routes';
import { adminOverview } from './stats';

/**
 * Transactional e-mails (spec section 2: engagement/transactional-emails; docs/transactional.md): the
 * send API with idempotency keys, messages delivered by the campaign sender through carriers
 * (carriers.ts), the templates' grid, settings and delivery log, and the platform admins' overview.
 */
const EXPIRE_QUEUE = 'transactional.expire-keys';

const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/transactional',
    {
      onRequest: requirePermission('admin_tenants'),
      schema: {
        tags: ['transactional'],
        security: bearer,
        summary: 'Transactional volume and failures per tenant (platform admins)',
        description: 'Permission admin_tenants. The last 30 days, most failing tenants first, at most 100.',
        response: { 200: TransactionalAdminOverview, ...errorResponses(401, 403) },
      },
    },
    async () => adminOverview(app.deps.db),
  );
};

export const transactionalArea: Area = {
  routes: async (app) => {
    registerCarrierHooks(carrierHooks);
    registerTemplateDeleteGuard('transactional', queuedRefusal);
    await app.register(transactionalRoutes, { prefix: '/v1/transactional' });
    await app.register(
      deliveryLogRoutes({ permission: 'transactional_emails', tags: ['transactional'], source: templateLogSource }),
      { prefix: '/v1/transactional/templates' },
    );
    await app.register(adminRoutes, { prefix: '/v1/admin' });
  },
  jobs: (jobs, deps) => {
    // The send job runs carriers wherever workers run (campaigns' queues); it needs their hooks there too.
    registerCarrierHooks(carrierHooks);
    jobs.work(
      EXPIRE_QUEUE,
      async () => {
        while ((await expireKeys(deps.db)) > 0);
      },
      { retryLimit: 0 },
    );
    jobs.schedule(EXPIRE_QUEUE, '17 * * * *');
  },
};

// What automations use to send through carriers: the same storage and sender as the send API.
export { carrierOf } from './carriers';
export { writeMessages, type Planned } from './accept';
export { recipientOf } from './recipient';
export { DEFAULT_SETTINGS } from './settings';
