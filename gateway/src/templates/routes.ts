import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import {
  MergeTagCatalogue,
  MessageResponse,
  Template,
  TEMPLATE_LIMITS,
  TEMPLATE_STARTERS,
  TemplateConflict,
  TemplateCreate,
  TemplateDuplicate,
  TemplateHtml,
  TemplateChoiceQuery,
  TemplateListQuery,
  TemplatePage,
  TemplatePreview,
  TemplatePreviewRequest,
  TemplateSaved,
  TemplateStarterList,
  TemplateStarterHtml,
  StarterParams,
  TemplateGalleryBody,
  TemplateTestSend,
  TemplateTestSent,
  TemplateUpdate,
  TemplateVersionList,
} from '../contracts';
import { authOf, requireAnyPermission, requirePermission, tenantOf } from '../auth/index';
import { IdParams } from '../lib/route-params';
import { bearer, errorResponses } from '../lib/openapi';
import { loadMergeContext } from './merge-context';
import { mergeTagCatalogue, sampleLinks } from './merge-tags';
import { STARTERS } from './starters/index';
import { galleryTemplates, setInGallery } from './gallery';
import { galleryThumbnail, starterThumbnail } from './starter-thumbnails';
import type { TemplatesContext } from './template-cache';
import { previewTemplate, sendTestEmails, thumbnailHtml } from './template-preview';
import { TEST_SEND_LIMIT, TestSendLimit } from '../lib/test-send-limit';
import { createTemplate, duplicateTemplate, restoreVersion, updateTemplate } from './template-save';
import { deleteTemplate, getTemplate, listTemplates, listVersions } from './template-store';

const tags = ['templates'];
const VersionParams = z.object({
  id: z.string().check(z.maxLength(64)),
  version: z.coerce.number().check(z.int(), z.minimum(1), z.maximum(2_000_000_000)),
});
/** A designer save carries the MJML (1 MB) and the project data (5 MB) as JSON: more than the default limit. */
const SAVE_BODY_LIMIT = TEMPLATE_LIMITS.mjmlBytes * 2 + TEMPLATE_LIMITS.projectBytes + 64 * 1024;

export const templateRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, mailer } = app.deps;
  const ctx: TemplatesContext = { db, publicUrl: config.onboarding.publicUrl };
  const testLimit = new TestSendLimit(db);
  const onRequest = requirePermission('templates');
  /**
   * Choosing a template for an e-mail (spec section 2: engagement/emails/compose, reached with
   * view_engagement_emails) reads templates without editing them: the choices, their thumbnails and
   * the merge tags of the subject. Everything that writes, and the designer's reads, need `templates`.
   */
  const onChoosing = requireAnyPermission('templates', 'view_engagement_emails');
  const userOf = (req: Parameters<typeof authOf>[0]) => authOf(req).user.id;

  app.get(
    '',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: "E-mail templates of the caller's tenant",
        description:
          'Permission templates. Search on the name; sorts updated_at (default), created_at, name; kind filter.',
        querystring: TemplateListQuery,
        response: { 200: TemplatePage, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => listTemplates(db, tenantOf(req), req.query),
  );

  app.get(
    '/choices',
    {
      onRequest: onChoosing,
      schema: {
        tags,
        security: bearer,
        summary: 'The marketing templates an e-mail may use (compose)',
        description:
          'Permission templates or view_engagement_emails. Read-only; marketing templates only. Search on the ' +
          'name; sorts updated_at (default), created_at, name.',
        querystring: TemplateChoiceQuery,
        response: { 200: TemplatePage, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => listTemplates(db, tenantOf(req), { ...req.query, kind: 'marketing' }),
  );

  app.post(
    '',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Create a template, blank or from a starter',
        body: TemplateCreate,
        response: { 201: Template, ...errorResponses(400, 401, 403) },
      },
    },
    async (req, reply) => reply.code(201).send(await createTemplate(ctx, tenantOf(req), userOf(req), req.body)),
  );

  app.get(
    '/starters',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'The starter gallery',
        response: { 200: TemplateStarterList, ...errorResponses(401, 403) },
      },
    },
    async () => ({
      records: TEMPLATE_STARTERS.map((key) => ({
        key,
        name: STARTERS[key].name,
        description: STARTERS[key].description,
      })),
      gallery: await galleryTemplates(db),
    }),
  );

  app.get(
    '/starters/:key/html',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: "A built-in starter merged for the tenant's sample values (the gallery's thumbnails)",
        description: 'Permission templates.',
        params: StarterParams,
        response: { 200: TemplateStarterHtml, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => starterThumbnail(ctx, tenantOf(req), req.params.key),
  );

  app.get(
    '/starters/gallery/:id/html',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: "A platform design of the gallery merged for the tenant's sample values (its thumbnail)",
        description: 'Permission templates. 404 for a template that is not in the gallery.',
        params: IdParams,
        response: { 200: TemplateStarterHtml, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => galleryThumbnail(ctx, tenantOf(req), req.params.id),
  );

  app.put(
    '/:id/gallery',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: "Put one of the platform's templates in every community's starter gallery, or take it out",
        description: "Super admins only (403 otherwise), for their own tenant's templates (the platform tenant's).",
        params: IdParams,
        body: TemplateGalleryBody,
        response: { 200: TemplateGalleryBody, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      const auth = authOf(req);
      return setInGallery(db, { role: auth.user.role, tenantId: tenantOf(req) }, req.params.id, req.body.in_gallery);
    },
  );

  app.get(
    '/merge-tags',
    {
      onRequest: onChoosing,
      schema: {
        tags,
        security: bearer,
        summary: 'The merge tags templates may use',
        description:
          "Permission templates or view_engagement_emails. Contact fields, the tenant's custom attributes, " +
          'community fields and per-recipient links.',
        response: { 200: MergeTagCatalogue, ...errorResponses(401, 403) },
      },
    },
    async (req) => {
      const merge = await loadMergeContext(db, tenantOf(req), ctx.publicUrl);
      return mergeTagCatalogue(merge.attributes, merge.community, sampleLinks(ctx.publicUrl));
    },
  );

  app.get(
    '/:id',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'One template with its MJML and designer data',
        params: IdParams,
        response: { 200: Template, ...errorResponses(401, 403, 404) },
      },
    },
    async (req) => getTemplate(db, tenantOf(req), req.params.id),
  );

  app.patch(
    '/:id',
    {
      onRequest,
      bodyLimit: SAVE_BODY_LIMIT,
      schema: {
        tags,
        security: bearer,
        summary: 'Rename, or save from the designer',
        description:
          'A change of mjml, project, subject or preview_text is a new version. With base_version no longer ' +
          'current, the save is kept as a version that is not current and the answer is 409 (TemplateConflict). ' +
          'MJML and Liquid errors are 400 with the line; unknown merge tags are warnings.',
        params: IdParams,
        body: TemplateUpdate,
        response: { 200: TemplateSaved, 409: TemplateConflict, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const outcome = await updateTemplate(ctx, tenantOf(req), userOf(req), req.params.id, req.body);
      if (outcome.kind === 'conflict') return reply.code(409).send(outcome.body);
      return outcome.saved;
    },
  );

  app.delete(
    '/:id',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Delete a template',
        description:
          'Refused (409, naming them) while a scheduled e-mail or an active automation uses it, and (409, with ' +
          'their count) while transactional messages of it wait to be sent.',
        params: IdParams,
        response: { 200: MessageResponse, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (req) => {
      await deleteTemplate(db, tenantOf(req), req.params.id);
      return { message: 'Template deleted.' };
    },
  );

  app.post(
    '/:id/duplicate',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Duplicate a template',
        params: IdParams,
        body: TemplateDuplicate,
        response: { 201: Template, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await duplicateTemplate(ctx, tenantOf(req), userOf(req), req.params.id, req.body.name)),
  );

  app.get(
    '/:id/versions',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'The kept versions, newest first',
        params: IdParams,
        response: { 200: TemplateVersionList, ...errorResponses(401, 403, 404) },
      },
    },
    async (req) => ({ records: await listVersions(db, tenantOf(req), req.params.id) }),
  );

  app.post(
    '/:id/versions/:version/restore',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Restore a version (saved as a new version)',
        params: VersionParams,
        response: { 200: TemplateSaved, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => restoreVersion(ctx, tenantOf(req), userOf(req), req.params.id, req.params.version),
  );

  app.post(
    '/:id/preview',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'The template rendered by the server for a contact or sample values',
        params: IdParams,
        body: TemplatePreviewRequest,
        response: { 200: TemplatePreview, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => previewTemplate(ctx, tenantOf(req), req.params.id, req.body),
  );

  app.get(
    '/:id/html',
    {
      onRequest: onChoosing,
      schema: {
        tags,
        security: bearer,
        summary: 'The current version merged for sample values (thumbnails)',
        description: 'Permission templates or view_engagement_emails (thumbnails in compose).',
        params: IdParams,
        response: { 200: TemplateHtml, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => thumbnailHtml(ctx, tenantOf(req), req.params.id),
  );

  app.post(
    '/:id/test',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Send the template to up to five addresses',
        description:
          'Through the gateway mailer (SMTP_URL, else the outbox): an HTML and a plain-text part. ' +
          `At most ${TEST_SEND_LIMIT.perUser} test e-mails per user and ${TEST_SEND_LIMIT.perTenant} per community every 10 minutes, e-mail tests included (429).`,
        params: IdParams,
        body: TemplateTestSend,
        response: { 200: TemplateTestSent, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req) => sendTestEmails({ ...ctx, mailer, testLimit }, tenantOf(req), userOf(req), req.params.id, req.body),
  );
};
