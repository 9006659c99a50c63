import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import {
  AffectedResponse,
  List,
  ListContactsBody,
  ListInput,
  ListListQuery,
  ListPage,
  MessageResponse,
} from '../../contracts';
import { requirePermission, tenantOf } from '../../auth';
import { changeListMembers } from '../contacts/contact-bulk';
import { createList, deleteList, getList, listLists, updateList } from './list-store';
import { IdParams } from '../../lib/route-params';
import { bearer, errorResponses } from '../../lib/openapi';

const tags = ['lists'];
const ListPatch = z.partial(ListInput);

export const listRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;
  const onRequest = requirePermission('manage_contacts');

  app.get(
    '',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: "Contact lists of the caller's tenant",
        description:
          'Permission manage_contacts. Search on the name; perPage up to 1000 (the all-lists fetch). ' +
          'Members: GET /v1/contacts?listId=.',
        querystring: ListListQuery,
        response: { 200: ListPage, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => listLists(db, tenantOf(req), req.query),
  );

  app.post(
    '',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Create a list',
        description: 'Permission manage_contacts. Names are unique per tenant (case-insensitive).',
        body: ListInput,
        response: { 201: List, ...errorResponses(400, 401, 403) },
      },
    },
    async (req, reply) => reply.code(201).send(await createList(db, tenantOf(req), req.body)),
  );

  app.get(
    '/:id',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'One list',
        params: IdParams,
        response: { 200: List, ...errorResponses(401, 403, 404) },
      },
    },
    async (req) => getList(db, tenantOf(req), req.params.id),
  );

  app.patch(
    '/:id',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Edit a list',
        params: IdParams,
        body: ListPatch,
        response: { 200: List, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => updateList(db, tenantOf(req), req.params.id, req.body),
  );

  app.delete(
    '/:id',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Delete a list',
        description: 'Permission manage_contacts. The contacts stay; only their membership goes.',
        params: IdParams,
        response: { 200: MessageResponse, ...errorResponses(401, 403, 404) },
      },
    },
    async (req) => {
      await deleteList(db, tenantOf(req), req.params.id);
      return { message: 'List deleted.' };
    },
  );

  app.patch(
    '/:id/contacts',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Add contacts to a list',
        description: "Permission manage_contacts. Ids that are not the tenant's contacts are ignored.",
        params: IdParams,
        body: ListContactsBody,
        response: { 200: AffectedResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => changeListMembers(db, tenantOf(req), req.params.id, req.body.contacts, 'add'),
  );

  app.delete(
    '/:id/contacts',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Remove contacts from a list',
        params: IdParams,
        body: ListContactsBody,
        response: { 200: AffectedResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => changeListMembers(db, tenantOf(req), req.params.id, req.body.contacts, 'remove'),
  );
};
