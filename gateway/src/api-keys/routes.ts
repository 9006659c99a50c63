import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf, requirePermission, tenantOf } from '../auth/index';
import {
  AccessKeysAction,
  AccessKeysList,
  ApiKey,
  ApiKeyEventPage,
  ApiKeyEventQuery,
  ApiKeyPage,
  ApiKeyQuery,
  CreateApiKeyBody,
  CreatedApiKey,
} from '../contracts';
import { bearer, errorResponses } from '../lib/openapi';
import { paginate } from '../lib/pagination';
import { IdParams } from '../lib/route-params';
import { allKeys, createKey, listKeyEvents, listKeys, revokeKey } from './store';

/**
 * Managing keys needs api_access (and the plan feature of that name). No key holds it (scopes.ts), so
 * a key can never list, make or revoke keys.
 */
const manageKeys = requirePermission('api_access');
const tags = ['api-keys'];
const KEY_FORMAT =
  'Secrets are `ck_live_` followed by 43 base62 characters; send them as `Authorization: Bearer ck_live_…`.';

/** `/v1/api-keys`: a tenant's keys and their audit list. */
export const apiKeyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, clock } = app.deps;

  app.get(
    '',
    {
      onRequest: manageKeys,
      schema: {
        tags,
        security: bearer,
        summary: "The tenant's API keys",
        description:
          'Permission api_access. Never returns a secret. Search on the name and prefix; sort by created_at ' +
          '(default), name or last_used_at.',
        querystring: ApiKeyQuery,
        response: { 200: ApiKeyPage, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      const { records, count } = await listKeys(db, tenantOf(req), req.query, clock());
      return { records, pagination: paginate(req.query.page, req.query.perPage, count) };
    },
  );

  app.post(
    '',
    {
      onRequest: manageKeys,
      schema: {
        tags,
        security: bearer,
        summary: 'Create an API key',
        description:
          `Permission api_access. Answers the secret once: only its SHA-256 is kept. ${KEY_FORMAT} ` +
          'Scopes: full (everything the plan allows except users, keys, webhooks, billing, settings and ' +
          'domains), sending (transactional e-mails) or contacts (contacts and lists). You can only create ' +
          'keys with permissions you hold; `expires_at` must be in the future.',
        body: CreateApiKeyBody,
        response: { 201: CreatedApiKey, ...errorResponses(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const { name, scope, expires_at } = req.body;
      const created = await createKey(
        db,
        authOf(req),
        tenantOf(req),
        { name, scope, expiresAt: expires_at ? new Date(expires_at) : null },
        clock(),
      );
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/events',
    {
      onRequest: manageKeys,
      schema: {
        tags,
        security: bearer,
        summary: "The audit list of the tenant's keys",
        description:
          'Permission api_access. Created, first used (with the address), revoked and expired, newest first; ' +
          'the search matches the key name, prefix and who acted.',
        querystring: ApiKeyEventQuery,
        response: { 200: ApiKeyEventPage, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      const { records, count } = await listKeyEvents(db, tenantOf(req), req.query);
      return { records, pagination: paginate(req.query.page, req.query.perPage, count) };
    },
  );

  app.delete(
    '/:id',
    {
      onRequest: manageKeys,
      schema: {
        tags,
        security: bearer,
        summary: 'Revoke an API key',
        description: 'Permission api_access. The key is refused from the next request on, in every gateway process.',
        params: IdParams,
        response: { 200: ApiKey, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => revokeKey(db, authOf(req), tenantOf(req), req.params.id, clock()),
  );
};

/** Spec section 7: `GET` and `POST /v1/tenants/access-keys`, on the same keys. */
export const accessKeyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, clock } = app.deps;
  const legacyTags = ['api-keys'];

  app.get(
    '/access-keys',
    {
      onRequest: manageKeys,
      schema: {
        tags: legacyTags,
        security: bearer,
        summary: "The tenant's API keys (spec section 7)",
        description: 'Permission api_access. Every key of the tenant, newest first (at most 1,000); no secrets.',
        response: { 200: AccessKeysList, ...errorResponses(401, 403) },
      },
    },
    async (req) => ({ records: await allKeys(db, tenantOf(req), clock()) }),
  );

  app.post(
    '/access-keys',
    {
      onRequest: manageKeys,
      schema: {
        tags: legacyTags,
        security: bearer,
        summary: 'Generate or revoke an API key (spec section 7)',
        description:
          'Permission api_access. `{action: "generate", name?, scope?, expires_at?}` creates a key (default ' +
          `name "API key", scope full) and answers 201 with its secret once. ${KEY_FORMAT} ` +
          '`{action: "revoke", id}` revokes the key `id` and answers it.',
        body: AccessKeysAction,
        response: { 200: ApiKey, 201: CreatedApiKey, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const body = req.body;
      if (body.action === 'revoke')
        return reply.send(await revokeKey(db, authOf(req), tenantOf(req), body.id, clock()));
      const created = await createKey(
        db,
        authOf(req),
        tenantOf(req),
        {
          name: body.name ?? 'API key',
          scope: body.scope ?? 'full',
          expiresAt: body.expires_at ? new Date(body.expires_at) : null,
        },
        clock(),
      );
      return reply.code(201).send(created);
    },
  );
};
