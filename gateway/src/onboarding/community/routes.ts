import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { Community, CommunityInput } from '../../contracts';
import { requirePermission, tenantOf } from '../../auth';
import { IdParams } from '../../lib/route-params';
import { bearer, errorResponses } from '../../lib/openapi';
import { jsonTextOf, plainJsonSerializer, sendJsonText } from '../../lib/plain-json';
import type { CommunityRow } from '../../db/schema';
import {
  createCommunity,
  myCommunityRow,
  toCommunity,
  updateCommunity,
  type CommunityContext,
} from './community-store';

const tags = ['communities'];
const CommunityPatch = z.partial(CommunityInput);
const FIELD_ERRORS =
  'Field errors use the keys title, short_description, what_you_get, description, slug, logo, background.';

/** The community page of the caller's tenant (spec sections 2, 4, 7). */
export const communityRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.deps;
  const ctx: CommunityContext = { db, storage: app.deps.storage, publicUrl: config.onboarding.publicUrl };
  const onRequest = requirePermission('manage_community');
  // The cached row's answer, serialized once per row (rows are replaced, never changed, when written).
  const communityText = jsonTextOf((row: CommunityRow) => toCommunity(row, ctx.publicUrl));

  app.get(
    '/my-community',
    {
      onRequest,
      // A small answer (about 450 bytes, under the 1 KiB compression threshold): no compression hooks.
      compress: false,
      decompress: false,
      serializerCompiler: plainJsonSerializer,
      schema: {
        tags,
        security: bearer,
        summary: "The caller tenant's community",
        description: "Permission manage_community. 404 'No community yet.' until the first save (POST).",
        response: { 200: Community, ...errorResponses(401, 403, 404) },
      },
    },
    (req, reply) => {
      const row = myCommunityRow(ctx, tenantOf(req));
      if (row instanceof Promise) return row.then((loaded) => sendJsonText(reply, communityText(loaded)));
      sendJsonText(reply, communityText(row));
      return undefined;
    },
  );

  app.post(
    '',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Create the community',
        description:
          'Permission manage_community. One per tenant. `slug` is required, unique across all communities. ' +
          'The title defaults to the tenant name. Images must be `fileUrl`s of stored uploads. ' +
          'A list for the sign-ups from the community page is created with it (`list_id`). ' +
          FIELD_ERRORS,
        body: CommunityInput,
        response: { 201: Community, ...errorResponses(400, 401, 403) },
      },
    },
    async (req, reply) => reply.code(201).send(await createCommunity(ctx, tenantOf(req), req.body)),
  );

  app.patch(
    '/:id',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Edit the community',
        description: `Permission manage_community. Only the given fields change; null clears an image. ${FIELD_ERRORS}`,
        params: IdParams,
        body: CommunityPatch,
        response: { 200: Community, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => updateCommunity(ctx, tenantOf(req), req.params.id, req.body),
  );
};
