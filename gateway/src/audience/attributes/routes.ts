import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CustomAttribute,
  CustomAttributeInput,
  CustomAttributeListQuery,
  CustomAttributePage,
  CustomAttributeRename,
  MessageResponse,
} from '../../contracts';
import { requireAnyPermission, requirePermission, tenantOf } from '../../auth';
import {
  createAttribute,
  deleteAttribute,
  getAttribute,
  listAttributes,
  removeAttributeValues,
  renameAttribute,
} from './attribute-store';
import { IdParams } from '../../lib/route-params';
import { bearer, errorResponses } from '../../lib/openapi';

const tags = ['custom attributes'];

export const customAttributeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, background } = app.deps;
  const onRequest = requirePermission('custom_attributes');

  app.get(
    '',
    {
      // The contacts grid, the import mapping and the segment builder read them too.
      onRequest: requireAnyPermission('manage_contacts', 'custom_attributes'),
      schema: {
        tags,
        security: bearer,
        summary: "Custom attributes of the caller's tenant",
        description: 'Permission manage_contacts or custom_attributes. Search on name and key.',
        querystring: CustomAttributeListQuery,
        response: { 200: CustomAttributePage, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => listAttributes(db, tenantOf(req), req.query),
  );

  app.post(
    '',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Define a custom attribute',
        description:
          'Permission custom_attributes. Keys: lower-case letters, digits and underscores, not a contact ' +
          'field, unique per tenant; key and type are fixed once created. At most 100 per tenant.',
        body: CustomAttributeInput,
        response: { 201: CustomAttribute, ...errorResponses(400, 401, 403) },
      },
    },
    async (req, reply) => reply.code(201).send(await createAttribute(db, tenantOf(req), req.body)),
  );

  app.get(
    '/:id',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'One custom attribute, with how many contacts hold a value',
        params: IdParams,
        response: { 200: CustomAttribute, ...errorResponses(401, 403, 404) },
      },
    },
    async (req) => getAttribute(db, tenantOf(req), req.params.id),
  );

  app.patch(
    '/:id',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Rename a custom attribute',
        params: IdParams,
        body: CustomAttributeRename,
        response: { 200: CustomAttribute, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => renameAttribute(db, tenantOf(req), req.params.id, req.body),
  );

  app.delete(
    '/:id',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Delete a custom attribute',
        description:
          'Permission custom_attributes. Its values stop showing at once; they are removed from the ' +
          'contacts in the background.',
        params: IdParams,
        response: { 200: MessageResponse, ...errorResponses(401, 403, 404) },
      },
    },
    async (req) => {
      const attribute = await deleteAttribute(db, tenantOf(req), req.params.id);
      background.run(async () => {
        await removeAttributeValues(db, attribute);
      });
      return { message: 'Custom attribute deleted.' };
    },
  );
};
