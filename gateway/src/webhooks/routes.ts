import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MessageResponse,
  WEBHOOK_MESSAGES,
  WebhookAttemptPage,
  WebhookAttemptQuery,
  WebhookEndpoint,
  WebhookEndpointBody,
  WebhookEndpointList,
  WebhookEndpointSecret,
  WebhookEndpointUpdateBody,
  WebhookTestResult,
} from '../contracts';
import { requirePermission, tenantOf } from '../auth';
import { bearer, errorResponses } from '../lib/openapi';
import { IdParams } from '../lib/route-params';
import { attemptPage } from './attempt-log';
import type { WebhookContext } from './context';
import { sendTestEvent } from './deliveries';
import type { EndpointStore } from './endpoint-store';

const tags = ['webhooks'];
const FIELDS =
  'url (https; its host must resolve to public addresses only), description (up to 500), events (one or more of ' +
  'sent, delivered, opened, clicked, bounced, complained, unsubscribed), enabled';

/**
 * Outgoing webhooks (`/v1/webhooks/endpoints`; account/api-access/webhooks): permission api_access, which
 * the plan feature api_access gates (the guard answers the plan's 403). Every route is scoped by the
 * caller's tenant: another tenant's endpoint is a 404.
 */
export function webhookRoutes(ctx: WebhookContext, endpoints: EndpointStore): FastifyPluginAsyncZod {
  return async (app) => {
    const onRequest = requirePermission('api_access');

    app.get(
      '',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: "The caller's webhook endpoints",
          description: 'Permission api_access. Newest first, each with its last attempt.',
          response: { 200: WebhookEndpointList, ...errorResponses(401, 403) },
        },
      },
      async (req) => ({ records: await endpoints.list(tenantOf(req)) }),
    );

    app.post(
      '',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: 'Add a webhook endpoint',
          description: `Permission api_access. ${FIELDS}. A signing secret is made (read it with GET …/{id}/secret). 400 names the fields.`,
          body: WebhookEndpointBody,
          response: { 201: WebhookEndpoint, ...errorResponses(400, 401, 403) },
        },
      },
      async (req, reply) => reply.code(201).send(await endpoints.create(tenantOf(req), req.body)),
    );

    app.get(
      '/:id',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: 'One webhook endpoint',
          description: 'Permission api_access.',
          params: IdParams,
          response: { 200: WebhookEndpoint, ...errorResponses(401, 403, 404) },
        },
      },
      async (req) => endpoints.get(tenantOf(req), req.params.id),
    );

    app.patch(
      '/:id',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: 'Edit a webhook endpoint',
          description: `Permission api_access. Any of: ${FIELDS}. Enabling clears the reason the gateway disabled it.`,
          params: IdParams,
          body: WebhookEndpointUpdateBody,
          response: { 200: WebhookEndpoint, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) => endpoints.update(tenantOf(req), req.params.id, req.body),
    );

    app.delete(
      '/:id',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: 'Delete a webhook endpoint',
          description: 'Permission api_access. Its deliveries and their log go with it.',
          params: IdParams,
          response: { 200: MessageResponse, ...errorResponses(401, 403, 404) },
        },
      },
      async (req) => {
        await endpoints.remove(tenantOf(req), req.params.id);
        return { message: WEBHOOK_MESSAGES.deleted };
      },
    );

    app.get(
      '/:id/secret',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: "The endpoint's signing secret",
          description:
            'Permission api_access. The Standard Webhooks secret (`whsec_` + base64 of 24 random bytes) that signs ' +
            'every delivery: `webhook-signature: v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` ' +
            'keyed by the base64-decoded part after `whsec_`.',
          params: IdParams,
          response: { 200: WebhookEndpointSecret, ...errorResponses(401, 403, 404) },
        },
      },
      async (req) => ({ secret: (await endpoints.full(tenantOf(req), req.params.id)).secret }),
    );

    app.post(
      '/:id/rotate-secret',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: "Rotate the endpoint's signing secret",
          description:
            'Permission api_access. A new secret signs every delivery from now on; the old one stops at once.',
          params: IdParams,
          response: { 200: WebhookEndpointSecret, ...errorResponses(401, 403, 404) },
        },
      },
      async (req) => ({ secret: await endpoints.rotate(tenantOf(req), req.params.id) }),
    );

    app.post(
      '/:id/test',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: 'Send a test event now',
          description:
            'Permission api_access. Sends a `webhook.test` event to the endpoint at once (one attempt, not retried; ' +
            'the address is checked again) and answers the attempt as logged: status code, time, error.',
          params: IdParams,
          response: { 200: WebhookTestResult, ...errorResponses(401, 403, 404) },
        },
      },
      async (req) => {
        const tenantId = tenantOf(req);
        const endpoint = await endpoints.full(tenantId, req.params.id);
        return { attempt: await sendTestEvent(ctx, tenantId, endpoint.id) };
      },
    );

    app.get(
      '/:id/attempts',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: "The endpoint's attempts",
          description:
            'Permission api_access. Newest first, paged (perPage up to 100; the count stops at 10,000). Each attempt: ' +
            'the event id and type, the attempt number, the status code (null without an answer), the response time, ' +
            'the error, the first 1 KB of the answer, and the next attempt when one follows.',
          params: IdParams,
          querystring: WebhookAttemptQuery,
          response: { 200: WebhookAttemptPage, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) => {
        const endpoint = await endpoints.full(tenantOf(req), req.params.id);
        return attemptPage(ctx.db, endpoint.id, req.query.page, req.query.perPage);
      },
    );
  };
}
