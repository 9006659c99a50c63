import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MessageResponse, WidgetDetail, WidgetInput, WidgetListQuery, WidgetPage } from '../../contracts';
import { requirePermission, tenantOf } from '../../auth';
import { IdParams } from '../../lib/route-params';
import { bearer, errorResponses } from '../../lib/openapi';
import * as z from 'zod/mini';
import { createWidget, deleteWidget, getWidget, listWidgets, updateWidget, type WidgetContext } from './widget-store';

const tags = ['widgets'];
const WidgetPatch = z.partial(WidgetInput);

/** Sign-up widgets of the caller's tenant (spec sections 2, 4, 7). */
export const widgetRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.deps;
  const ctx: WidgetContext = { db, sdkBaseUrl: config.onboarding.sdkBaseUrl };
  const onRequest = requirePermission('manage_community');

  app.get(
    '',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: "Widgets of the caller's tenant",
        description:
          'Permission manage_community. Search on the URL and the type; sort by created_at, type, url, count.',
        querystring: WidgetListQuery,
        response: { 200: WidgetPage, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => listWidgets(db, tenantOf(req), req.query),
  );

  app.post(
    '',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Create a widget',
        description:
          "Permission manage_community; the tenant's community must exist. The target is one of the tenant's " +
          "lists, neither auto-imported nor the community's own; `url` is the http(s) address of the website. " +
          'Answers what the embed snippet needs.',
        body: WidgetInput,
        response: { 201: WidgetDetail, ...errorResponses(400, 401, 403) },
      },
    },
    async (req, reply) => reply.code(201).send(await createWidget(ctx, tenantOf(req), req.body)),
  );

  app.get(
    '/:id',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'One widget, with what its embed snippet needs',
        params: IdParams,
        response: { 200: WidgetDetail, ...errorResponses(401, 403, 404) },
      },
    },
    async (req) => getWidget(ctx, tenantOf(req), req.params.id),
  );

  app.patch(
    '/:id',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Edit a widget',
        description:
          'Permission manage_community. Type, target list and website URL, checked as on create; the sign-ups count stays.',
        params: IdParams,
        body: WidgetPatch,
        response: { 200: WidgetDetail, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => updateWidget(ctx, tenantOf(req), req.params.id, req.body),
  );

  app.delete(
    '/:id',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Delete a widget',
        params: IdParams,
        response: { 200: MessageResponse, ...errorResponses(401, 403, 404) },
      },
    },
    async (req) => {
      await deleteWidget(db, tenantOf(req), req.params.id);
      return { message: 'Widget deleted.' };
    },
  );
};
