import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MessageResponse,
  Segment,
  SegmentInput,
  SegmentListQuery,
  SegmentFieldList,
  SegmentPage,
  SegmentPreview,
  SegmentPreviewBody,
} from '../../contracts';
import { requirePermission, tenantOf } from '../../auth';
import { IdParams } from '../../lib/route-params';
import { rejectDeepRule } from './segment-sql';
import { segmentFieldList } from './segment-context';
import { createSegment, deleteSegment, getSegment, listSegments, previewSegment, updateSegment } from './segment-store';
import { bearer, errorResponses } from '../../lib/openapi';

const tags = ['segments'];

const RULES =
  'The rule is react-querybuilder JSON over the fields of `GET /v1/segments/fields` (contact fields, `list`, ' +
  "`attr.<key>`, the watched contracts' `chain.…` fields) with the operators of their kind; anything else is " +
  '400 with `errors.rule`. A rule naming a contract no longer watched is a 400 here, and matches nobody in a ' +
  'segment saved before.';

export const segmentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;
  const onRequest = requirePermission('manage_contacts');
  // Before the (recursive) schema check: rules nested hundreds deep are a 400, not a stack overflow.
  const preValidation = async (req: FastifyRequest) => rejectDeepRule(req.body);

  app.get(
    '',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: "Saved segments of the caller's tenant",
        description: 'Permission manage_contacts. Search on the name; sort by created_at, name or updated_at.',
        querystring: SegmentListQuery,
        response: { 200: SegmentPage, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => listSegments(db, tenantOf(req), req.query),
  );

  app.get(
    '/fields',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'The fields a segment rule may use',
        description:
          'Permission manage_contacts. Contact fields, custom attributes and, per watched smart contract, ' +
          '`chain.balance.<contract id>` (a token whose balances are kept: amounts in token units as decimal ' +
          'strings, operators >=, <, between), `chain.event.<contract id>.<Event>` (value [K] or [K, D]: at ' +
          'least (>=) or fewer than (<) K times, ever or within the last D days) and `chain.first_seen` (a date).',
        response: { 200: SegmentFieldList, ...errorResponses(401, 403) },
      },
    },
    async (req) => segmentFieldList(db, tenantOf(req)),
  );

  app.post(
    '',
    {
      onRequest,
      preValidation,
      schema: {
        tags,
        security: bearer,
        summary: 'Save a segment',
        description: `Permission manage_contacts. Names are unique per tenant (case-insensitive). ${RULES}`,
        body: SegmentInput,
        response: { 201: Segment, ...errorResponses(400, 401, 403) },
      },
    },
    async (req, reply) => reply.code(201).send(await createSegment(db, tenantOf(req), req.body)),
  );

  app.post(
    '/preview',
    {
      onRequest,
      preValidation,
      schema: {
        tags,
        security: bearer,
        summary: 'Count and first matches of a rule',
        description:
          'Permission manage_contacts. The count is the number of contacts a send to this rule would reach ' +
          `(the same query); records are the newest \`limit\` matches. ${RULES}`,
        body: SegmentPreviewBody,
        response: { 200: SegmentPreview, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => previewSegment(db, tenantOf(req), req.body),
  );

  app.get(
    '/:id',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'One segment',
        description: 'Permission manage_contacts. 404 for an id that is not one of your segments.',
        params: IdParams,
        response: { 200: Segment, ...errorResponses(401, 403, 404) },
      },
    },
    async (req) => getSegment(db, tenantOf(req), req.params.id),
  );

  app.patch(
    '/:id',
    {
      onRequest,
      preValidation,
      schema: {
        tags,
        security: bearer,
        summary: 'Change a segment',
        description: `Permission manage_contacts. The whole segment (name, description, rule). ${RULES}`,
        params: IdParams,
        body: SegmentInput,
        response: { 200: Segment, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => updateSegment(db, tenantOf(req), req.params.id, req.body),
  );

  app.delete(
    '/:id',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Delete a segment',
        description: 'Permission manage_contacts. The contacts stay.',
        params: IdParams,
        response: { 200: MessageResponse, ...errorResponses(401, 403, 404) },
      },
    },
    async (req) => {
      await deleteSegment(db, tenantOf(req), req.params.id);
      return { message: 'Segment deleted.' };
    },
  );
};
