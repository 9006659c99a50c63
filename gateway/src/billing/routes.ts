import { sendHtml } from '../lib/html-reply';
/**
 * Billing (spec sections 3, 4 and 9): the billing page, plan changes (summary, change, scheduled downgrades), the
 * billing portal link, and the local provider's portal page. Registered without a prefix: the API is
 * under /v1/billing, the portal page (a browser page, no session: its signed token is the key) under
 * /billing/portal.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import {
  BillingOverview,
  ChangeResult,
  ChangeSummary,
  MessageResponse,
  PortalRequest,
  PortalResponse,
  isStorableText,
  text,
  UNSTORABLE_TEXT_MESSAGE,
} from '../contracts';
import { requirePermission, tenantOf } from '../auth';
import { invalidPortalPage, PORTAL_CSP, portalPage, type PortalAction, PORTAL_ACTIONS } from './portal-page';
import { consoleReturnUrl, verifyPortalToken } from './portal-token';
import { RETURN_URL_INVALID } from './providers/provider';
import { getTenant } from '../tenants';
import { badRequest } from '../errors';
import { bearer, errorResponses } from '../lib/openapi';

const tags = ['billing'];
const PriceParams = z.object({ planPriceId: text(100) });
// A wildcard, not `:token`: tokens carry the return address and exceed the router's 100-character parameters.
const TokenParams = z.object({ '*': text(4096) });
const PortalQuery = z.object({ updated: z.optional(text(5)) });
const IDEMPOTENCY_KEY_MAX = 255;

/** The optional Idempotency-Key header (null when absent or blank). */
function idempotencyKeyOf(headers: IncomingHttpHeaders): string | null {
  const header = headers['idempotency-key'];
  const key = typeof header === 'string' ? header.trim() : '';
  if (key.length > IDEMPOTENCY_KEY_MAX) {
    throw badRequest(`The Idempotency-Key header has at most ${IDEMPOTENCY_KEY_MAX} characters.`);
  }
  if (!isStorableText(key)) throw badRequest(`The Idempotency-Key header: ${UNSTORABLE_TEXT_MESSAGE}`);
  return key || null;
}

export const billingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.deps;
  const { provider: billing, local } = app.deps.billing;
  const onRequest = requirePermission('company_settings');
  // Due downgrades and renewals are applied by a recurring job (billing/due-changes-job.ts).

  app.get(
    '/v1/billing',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: "The tenant's billing: plan, price, period, next invoice, payment method, invoices",
        description: 'Permission company_settings. `billing` is false for tenants without automated billing.',
        response: { 200: BillingOverview, ...errorResponses(401, 403) },
      },
    },
    async (req) => billing.overview(tenantOf(req)),
  );

  app.get(
    '/v1/billing/change-summary/:planPriceId',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'What changing to a price costs',
        description:
          'Permission company_settings. An upgrade (higher price per month) takes effect now and charges the ' +
          'prorated difference; a downgrade is scheduled for the end of the current period (effectiveDate) ' +
          'with nothing due now. 400 for an unknown price, the current price, or a tenant without billing.',
        params: PriceParams,
        response: { 200: ChangeSummary, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => billing.previewChange(tenantOf(req), req.params.planPriceId),
  );

  const change = {
    onRequest,
    schema: {
      tags,
      security: bearer,
      summary: 'Change the plan to a price',
      description:
        'Permission company_settings. Upgrades change the plan now (permissions follow on the next request) ' +
        'and charge the prorated amount; downgrades are scheduled for the period end. Idempotent: repeating ' +
        'it (or sending the same Idempotency-Key) changes and charges once. 402 when the payment is declined ' +
        '(nothing changes).',
      params: PriceParams,
      response: { 200: ChangeResult, ...errorResponses(400, 401, 402, 403) },
    },
  };
  app.get('/v1/billing/change/:planPriceId', change, async (req) =>
    billing.applyChange(tenantOf(req), req.params.planPriceId, { idempotencyKey: idempotencyKeyOf(req.headers) }),
  );
  app.post('/v1/billing/change/:planPriceId', change, async (req) =>
    billing.applyChange(tenantOf(req), req.params.planPriceId, { idempotencyKey: idempotencyKeyOf(req.headers) }),
  );

  app.delete(
    '/v1/billing/scheduled-change',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Cancel a scheduled downgrade',
        description: 'Permission company_settings. The current plan simply continues.',
        response: { 200: MessageResponse, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) =>
      (await billing.cancelScheduled(tenantOf(req)))
        ? { message: 'The scheduled plan change was cancelled.' }
        : { message: 'No plan change was scheduled.' },
  );

  app.post(
    '/v1/billing/access-portal',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'A link to the billing portal (payment method)',
        description:
          'Permission company_settings. return_url must be an address of the console; the link is valid for 30 minutes.',
        body: PortalRequest,
        response: { 200: PortalResponse, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      const tenantId = tenantOf(req);
      const returnUrl = consoleReturnUrl(req.body.return_url, config.consoleOrigins, config.consoleUrl);
      if (!returnUrl) throw badRequest('Invalid input', { return_url: [RETURN_URL_INVALID] });
      return { url: await billing.portalUrl(tenantId, returnUrl) };
    },
  );

  // ---------------------------------------------------------------------------------------------
  // The local billing portal page
  // ---------------------------------------------------------------------------------------------

  // Only the local provider has it: Stripe's portal is Stripe's (portalUrl above).
  if (!local) return;
  const portalBilling = local;

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  const html = (reply: FastifyReply, status: number, body: string) => sendHtml(reply, PORTAL_CSP, status, body);

  const portalPath = (token: string) => `/billing/portal/${encodeURIComponent(token)}`;

  async function showPortal(reply: FastifyReply, token: string, status = 200, notice?: string) {
    const claims = verifyPortalToken(config.jwtSecret, token);
    const tenant = claims ? await getTenant(db, claims.tenantId) : null;
    if (!claims || !tenant) return html(reply, 400, invalidPortalPage());
    return html(
      reply,
      status,
      portalPage({
        tenantName: tenant.name,
        paymentMethod: await portalBilling.paymentMethod(claims.tenantId),
        action: portalPath(token),
        returnUrl: claims.returnUrl,
        notice,
      }),
    );
  }

  app.get(
    '/billing/portal/*',
    { schema: { hide: true, params: TokenParams, querystring: PortalQuery } },
    async (req, reply) =>
      showPortal(reply, req.params['*'], 200, req.query.updated ? 'Payment method updated.' : undefined),
  );

  app.post('/billing/portal/*', { schema: { hide: true, params: TokenParams } }, async (req, reply) => {
    const claims = verifyPortalToken(config.jwtSecret, req.params['*']);
    if (!claims) return html(reply, 400, invalidPortalPage());
    const body: unknown = req.body;
    const action = typeof body === 'object' && body !== null && 'action' in body ? body.action : undefined;
    if (action !== 'working' && action !== 'failing') return showPortal(reply, req.params['*'], 400);
    const chosen: PortalAction = action;
    await portalBilling.setPaymentMethod(claims.tenantId, chosen === 'failing');
    req.log.info({ tenantId: claims.tenantId, action: PORTAL_ACTIONS[chosen] }, 'billing portal: payment method set');
    return reply
      .code(303)
      .header('Location', `${portalPath(req.params['*'])}?updated=1`)
      .send();
  });
};
export default billingRoutes;
