import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  APPLET_MESSAGES,
  Applet,
  AppletBody,
  AppletInspectBody,
  AppletListQuery,
  AppletManifest,
  AppletPage,
  AppletUpdateBody,
  MessageResponse,
} from '../contracts';
import { requirePermission } from '../auth';
import { IdParams } from '../lib/route-params';
import { bearer, errorResponses } from '../lib/openapi';
import {
  createApplet,
  deleteApplet,
  getApplet,
  inspectManifest,
  listApplets,
  updateApplet,
  type AppletContext,
} from './applet-store';

const tags = ['applets'];
const FIELDS =
  'name (1-100), slug (2-50 of a-z 0-9 -, unique), description (up to 500), icon (an http(s) image address or ' +
  "null), manifest_url (http(s): the remote's mf-manifest.json, read by the gateway), module (one the manifest " +
  "exposes, './Page'), plan_ids (plans of the catalogue that include it), enabled";

/** Applets administration (spec sections 2 and 7): permission admin_applets, every route. */
export const appletRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.deps;
  const ctx: AppletContext = {
    db,
    manifests: {
      allowPrivate: config.applets.allowPrivateManifests,
      timeoutMs: config.applets.manifestTimeoutMs,
      maxBytes: config.applets.manifestMaxBytes,
    },
  };
  const onRequest = requirePermission('admin_applets');

  app.get(
    '',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'The applets',
        description:
          'Permission admin_applets. The list query of spec section 3: search on name, slug and description; ' +
          'sort by created_at (default), updated_at, name, slug, enabled; perPage up to 1000 (the full fetch).',
        querystring: AppletListQuery,
        response: { 200: AppletPage, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => listApplets(db, req.query),
  );

  app.post(
    '/inspect',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: "Read an applet's manifest",
        description:
          'Permission admin_applets. The gateway fetches the Module Federation manifest (http(s) only; private, ' +
          'loopback and link-local addresses are refused unless APPLETS_ALLOW_PRIVATE_MANIFESTS; redirects are ' +
          'checked the same way; a time limit and a size cap) and answers its name and exposed modules. 400 on ' +
          'manifest_url with the reason when it cannot be read or is not a manifest.',
        body: AppletInspectBody,
        response: { 200: AppletManifest, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => inspectManifest(ctx, req.body.manifest_url),
  );

  app.get(
    '/:id',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'One applet',
        description: 'Permission admin_applets.',
        params: IdParams,
        response: { 200: Applet, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => getApplet(db, req.params.id),
  );

  app.post(
    '',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Register an applet',
        description: `Permission admin_applets. ${FIELDS}. 400 names the fields; the manifest is read on every save.`,
        body: AppletBody,
        response: { 201: Applet, ...errorResponses(400, 401, 403) },
      },
    },
    async (req, reply) => reply.code(201).send(await createApplet(ctx, req.body)),
  );

  app.patch(
    '/:id',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Edit an applet',
        description:
          `Permission admin_applets. Spec section 7: the id is in the body too (_id; another id is a 400 on _id). ` +
          `Any of: ${FIELDS}. The whole applet is checked again (the manifest is read).`,
        params: IdParams,
        body: AppletUpdateBody,
        response: { 200: Applet, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => updateApplet(ctx, req.params.id, req.body),
  );

  app.delete(
    '/:id',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Delete an applet',
        description:
          "Permission admin_applets. The applet is removed, and from every tenant's enabled applets with it.",
        params: IdParams,
        response: { 200: MessageResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await deleteApplet(db, req.params.id);
      return { message: APPLET_MESSAGES.deleted };
    },
  );
};
