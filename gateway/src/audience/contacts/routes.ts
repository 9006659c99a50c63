import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AffectedResponse,
  BulkContactsBody,
  Contact,
  ContactFilter,
  ContactInput,
  ContactListQuery,
  ContactPage,
  MessageResponse,
} from '../../contracts';
import { requirePermission, tenantOf } from '../../auth';
import { bulkContacts } from './contact-bulk';
import { exportContacts, exportFileName } from './contact-export';
import { resolveContactFilter } from './contact-query';
import { createContact, deleteContact, getContact, listContacts, updateContact } from './contact-store';
import { IdParams } from '../../lib/route-params';
import { bearer, errorResponses } from '../../lib/openapi';
import { sendStreamedFile } from '../../lib/streamed-file';

const tags = ['contacts'];

export const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;
  const onRequest = requirePermission('manage_contacts');

  app.get(
    '',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: "Contacts of the caller's tenant",
        description:
          'Permission manage_contacts. searchString is a case-insensitive prefix ("starts with") match on ' +
          'e-mail, wallet, first name and last name. Filters: listId, status, source, attribute (key or id) ' +
          'with optional attributeValue, segmentId. A list, attribute or segment of another tenant is 404.',
        querystring: ContactListQuery,
        response: { 200: ContactPage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => listContacts(db, tenantOf(req), req.query),
  );

  app.post(
    '',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Add a contact',
        description:
          'Permission manage_contacts. E-mail or wallet is required; both are unique per tenant. ' +
          'Custom attribute values by key, checked by type. The source is set to manual. 409 when the ' +
          'community already holds as many contacts as the database takes (embedded PGlite; docs/storage.md).',
        body: ContactInput,
        response: { 201: Contact, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (req, reply) => reply.code(201).send(await createContact(db, tenantOf(req), req.body)),
  );

  app.get(
    '/export',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Export the matching contacts as CSV',
        description:
          'Permission manage_contacts. The grid filters as query; text/csv (UTF-8 with BOM), streamed. Columns: ' +
          'email, wallet, first_name, last_name, status, source, created_at, updated_at, lists (names joined ' +
          'by "; "), then one per custom attribute key. Cells starting with =, +, -, @, tab or CR get a leading \'.',
        querystring: ContactFilter,
        // No response schema: the 200 body is a stream (errors are the usual {message, errors?}).
        produces: ['text/csv'],
      },
    },
    async (req, reply) => {
      const scope = await resolveContactFilter(db, tenantOf(req), req.query);
      return sendStreamedFile(reply, exportContacts(db, scope), {
        contentType: 'text/csv; charset=utf-8',
        fileName: exportFileName(new Date()),
      });
    },
  );

  app.post(
    '/bulk',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Act on many contacts at once',
        description:
          'Permission manage_contacts. add_to_list, remove_from_list (both need listId), unsubscribe ' +
          '(subscribed contacts only) or delete, on the given ids or on every contact that matches a filter.',
        body: BulkContactsBody,
        response: { 200: AffectedResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => bulkContacts(db, tenantOf(req), req.body),
  );

  app.get(
    '/:id',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'One contact',
        params: IdParams,
        response: { 200: Contact, ...errorResponses(401, 403, 404) },
      },
    },
    async (req) => getContact(db, tenantOf(req), req.params.id),
  );

  app.patch(
    '/:id',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Edit a contact',
        description: 'Permission manage_contacts. Only the given fields change; lists replaces the memberships.',
        params: IdParams,
        body: ContactInput,
        response: { 200: Contact, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => updateContact(db, tenantOf(req), req.params.id, req.body),
  );

  app.delete(
    '/:id',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Delete a contact',
        params: IdParams,
        response: { 200: MessageResponse, ...errorResponses(401, 403, 404) },
      },
    },
    async (req) => {
      await deleteContact(db, tenantOf(req), req.params.id);
      return { message: 'Contact deleted.' };
    },
  );
};
