/**
 * The delivery log's API (spec section 2, engagement/emails/log/:id; permission view_engagement_emails),
 * the same routes for every source of sends (`LogSource`): transactional templates mount them too.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import {
  DeliveryEventList,
  DeliveryLinkList,
  DeliveryRecipientPage,
  DeliveryRecipientQuery,
  DeliveryTimeline,
  idText,
  text,
} from '../../contracts';
import { requirePermission, tenantOf } from '../../auth';
import type { Permission } from '../../contracts';
import type { Database } from '../../db/index';
import { IdParams } from '../../lib/route-params';
import { bearer, errorResponses } from '../../lib/openapi';
import { sendStreamedFile } from '../../lib/streamed-file';
import {
  campaignSource,
  deliveryLinks,
  type LogSource,
  deliveryRecipients,
  deliveryTimeline,
  exportFileName,
  exportRecipients,
  recipientEvents,
} from './log-store';

const RecipientParams = z.object({ id: idText(), rid: text(32) });

export interface LogRoutesOptions {
  permission: Permission;
  tags: string[];
  /** The tenant's source of that id (404 otherwise). */
  source: (db: Database, tenantId: string, id: string) => Promise<LogSource>;
}

/** The log's routes under `/:id/log/…` for one kind of source. */
export function deliveryLogRoutes(options: LogRoutesOptions): FastifyPluginAsyncZod {
  return async (app) => {
    const { db, clock } = app.deps;
    const { tags } = options;
    const onRequest = requirePermission(options.permission);
    const source = (tenantId: string, id: string) => options.source(db, tenantId, id);
    const permission = `Permission ${options.permission}.`;

    app.get(
      '/:id/log/timeline',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: "The delivery log's chart",
          description:
            permission +
            ' ' +
            'Counts per bucket (sent, delivered, opened, clicked, bounced, ' +
            'complained, unsubscribed) from the first to the last event, at most 200 buckets; opens and clicks ' +
            "are unique human ones. Another tenant's e-mail is 404.",
          params: IdParams,
          response: { 200: DeliveryTimeline, ...errorResponses(401, 403, 404) },
        },
      },
      async (req) => deliveryTimeline(db, await source(tenantOf(req), req.params.id)),
    );

    app.get(
      '/:id/log/recipients',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: 'Recipients of an e-mail',
          description:
            permission +
            ' ' +
            'Filter by status and by event (opened, clicked, unsubscribed: ' +
            "unique human ones; complained; the others by the recipient's status); searchString is a " +
            'case-insensitive prefix of the address. Sort by address or sent_at. `count_capped`: more matches ' +
            'than counted (the count stops 10,000 rows past the page).',
          params: IdParams,
          querystring: DeliveryRecipientQuery,
          response: { 200: DeliveryRecipientPage, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) => deliveryRecipients(db, await source(tenantOf(req), req.params.id), req.query),
    );

    app.get(
      '/:id/log/recipients/:rid/events',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: "A recipient's timeline",
          description: `${permission} ` + 'Events oldest first (machine opens and clicks marked).',
          params: RecipientParams,
          response: { 200: DeliveryEventList, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) => recipientEvents(db, await source(tenantOf(req), req.params.id), req.params.rid),
    );

    app.get(
      '/:id/log/links',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: 'Links of an e-mail with their clicks',
          description: `${permission} ` + 'Most clicked first; human clicks only.',
          params: IdParams,
          response: { 200: DeliveryLinkList, ...errorResponses(401, 403, 404) },
        },
      },
      async (req) => deliveryLinks(db, await source(tenantOf(req), req.params.id)),
    );

    app.get(
      '/:id/log/export',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: 'Export the recipients as CSV',
          description:
            permission +
            ' ' +
            "The grid's filters as query; text/csv (UTF-8 with BOM), streamed. " +
            'Columns: address, channel, status, attempts, sent_at, opened_at, clicked_at, unsubscribed_at, error. ' +
            "Cells starting with =, +, -, @, tab or CR get a leading '.",
          params: IdParams,
          querystring: DeliveryRecipientQuery,
          produces: ['text/csv'],
        },
      },
      async (req, reply) => {
        const from = await source(tenantOf(req), req.params.id);
        return sendStreamedFile(reply, exportRecipients(db, from, req.query), {
          contentType: 'text/csv; charset=utf-8',
          fileName: exportFileName(clock()),
        });
      },
    );
  };
}

export const logRoutes = deliveryLogRoutes({
  permission: 'view_engagement_emails',
  tags: ['campaigns'],
  source: campaignSource,
});
