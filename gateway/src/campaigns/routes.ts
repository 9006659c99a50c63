/**
 * The compose API (spec section 2: engagement/emails and engagement/emails/compose/:id?): the
 * E-mails grid, drafts with autosave, the audience count, preview and test sends, and the
 * lifecycle (send now, schedule, unschedule, pause, resume, cancel). Permission
 * `view_engagement_emails`; every call is scoped to the caller's tenant.
 */
import { verifiedDomains } from '../domains/index';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import {
  AudienceCount,
  AudienceSelection,
  Campaign,
  CampaignCreate,
  CampaignDuplicate,
  CampaignListQuery,
  CampaignPage,
  CampaignPreview,
  CampaignSenders,
  CampaignPreviewRequest,
  CampaignSend,
  CampaignTestSend,
  CampaignUpdate,
  MessageResponse,
} from '../contracts';
import { authOf, requirePermission, tenantOf } from '../auth/index';
import { badRequest, INVALID_INPUT } from '../errors';
import { bearer, errorResponses } from '../lib/openapi';
import { IdParams } from '../lib/route-params';
import { TEST_SEND_LIMIT, TestSendLimit } from '../lib/test-send-limit';
import { countAudience } from './audience';
import { previewCampaign, sendCampaignTest } from './campaign-preview';
import {
  audienceErrors,
  campaignRow,
  createCampaign,
  deleteCampaign,
  duplicateCampaign,
  getCampaign,
  listCampaigns,
  updateCampaign,
} from './campaign-store';
import {
  cancelCampaign,
  pauseCampaign,
  resumeCampaign,
  sendCampaign,
  unscheduleCampaign,
  type LifecycleContext,
} from './lifecycle';

const tags = ['campaigns'];

export const campaignRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, mailer, jobs, clock } = app.deps;
  const onRequest = requirePermission('view_engagement_emails');
  const userOf = (req: Parameters<typeof authOf>[0]) => authOf(req).user.id;
  const lifecycle = (): LifecycleContext => ({ db, jobs, config, now: clock() });
  const previewCtx = { db, publicUrl: config.onboarding.publicUrl };
  const testLimit = new TestSendLimit(db);
  const walletDomain = config.campaigns.walletMailDomain;

  app.get(
    '',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: "The tenant's e-mails (campaigns)",
        description:
          'Permission view_engagement_emails. Search on the name; sorts updated_at (default), created_at, name, ' +
          'scheduled_at; status filter. Rates are unique opens and clicks over delivered e-mails.',
        querystring: CampaignListQuery,
        response: { 200: CampaignPage, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => listCampaigns(db, tenantOf(req), req.query),
  );

  app.post(
    '',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Start a new e-mail (a draft), blank or from a marketing template',
        description:
          "From a template, its subject and preview text are copied. From name: the community's name; from " +
          "address: the platform's sender; opens and clicks tracked; UTM source community-console, medium email.",
        body: CampaignCreate,
        response: { 201: Campaign, ...errorResponses(400, 401, 403) },
      },
    },
    async (req, reply) => reply.code(201).send(await createCampaign(db, config, tenantOf(req), userOf(req), req.body)),
  );

  app.get(
    '/senders',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'The From addresses this community may use',
        description:
          "The platform's sender address, and the community's verified sending domains (any address on them).",
        response: { 200: CampaignSenders, ...errorResponses(401, 403) },
      },
    },
    async (req) => ({
      platform_address: config.campaigns.defaultFrom,
      domains: await verifiedDomains(db, tenantOf(req)),
    }),
  );

  app.post(
    '/audience',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Count who a selection of lists and segments reaches',
        description: 'The same query the send uses; says why people are left out. Ids must be the tenant’s.',
        body: AudienceSelection,
        response: { 200: AudienceCount, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      const tenantId = tenantOf(req);
      const errors = await audienceErrors(db, tenantId, req.body, '');
      if (Object.keys(errors).length > 0) throw badRequest(INVALID_INPUT, errors);
      return countAudience(db, tenantId, req.body, walletDomain);
    },
  );

  app.get(
    '/:id',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'One e-mail, whole (what compose opens)',
        params: IdParams,
        response: { 200: Campaign, ...errorResponses(401, 403, 404) },
      },
    },
    async (req) => getCampaign(db, tenantOf(req), req.params.id),
  );

  app.patch(
    '/:id',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Save a draft or a scheduled e-mail (autosave)',
        description:
          'Every save bumps the version. With a stale base_version nothing is saved: 409. Sent, sending, paused, ' +
          'cancelled and failed e-mails cannot be edited: 409. A scheduled e-mail keeps its schedule.',
        params: IdParams,
        body: CampaignUpdate,
        response: { 200: Campaign, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (req) => updateCampaign(db, tenantOf(req), req.params.id, req.body, config.campaigns.defaultFrom),
  );

  app.delete(
    '/:id',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Delete a draft, cancelled or failed e-mail',
        params: IdParams,
        response: { 204: z.null(), ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (req, reply) => {
      await deleteCampaign(db, tenantOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/:id/duplicate',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: "Duplicate an e-mail as a draft ('Copy of …')",
        params: IdParams,
        body: CampaignDuplicate,
        response: { 201: Campaign, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await duplicateCampaign(db, tenantOf(req), userOf(req), req.params.id, req.body.name)),
  );

  app.get(
    '/:id/audience',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: "Count who the e-mail's audience reaches",
        params: IdParams,
        response: { 200: AudienceCount, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      const row = await campaignRow(db, tenantOf(req), req.params.id);
      return countAudience(db, row.tenantId, row.audience, walletDomain);
    },
  );

  app.post(
    '/:id/preview',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'The e-mail rendered for a contact, or with sample values',
        params: IdParams,
        body: CampaignPreviewRequest,
        response: { 200: CampaignPreview, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) =>
      previewCampaign(previewCtx, await campaignRow(db, tenantOf(req), req.params.id), req.body.contact_id),
  );

  app.post(
    '/:id/test',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Send the e-mail as it stands to up to five addresses',
        description: `Subject prefixed '[Test] '. At most ${TEST_SEND_LIMIT.perUser} test e-mails per user and ${TEST_SEND_LIMIT.perTenant} per community every 10 minutes, template tests included (429).`,
        params: IdParams,
        body: CampaignTestSend,
        response: { 200: MessageResponse, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req) =>
      sendCampaignTest(
        { ...previewCtx, mailer, testLimit, platformFrom: config.campaigns.defaultFrom },
        await campaignRow(db, tenantOf(req), req.params.id),
        userOf(req),
        req.body,
      ),
  );

  app.post(
    '/:id/send',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'Send now, or schedule (scheduled_at with its time zone)',
        description:
          'A draft or a scheduled e-mail. 400 with field errors when it is not complete (subject, template_id, ' +
          "from_email, audience) or the time is not in the future (at most 365 days ahead). 402 when it would exceed the plan's e-mail volume left this period, saying by how many.",
        params: IdParams,
        body: CampaignSend,
        response: { 200: Campaign, ...errorResponses(400, 401, 402, 403, 404, 409) },
      },
    },
    async (req) => sendCampaign(lifecycle(), tenantOf(req), req.params.id, req.body),
  );

  const moves = [
    ['unschedule', 'Unschedule a scheduled e-mail (back to a draft)', unscheduleCampaign],
    ['pause', 'Pause an e-mail that is sending', pauseCampaign],
    ['resume', 'Resume a paused e-mail (402 when what is left exceeds the plan)', resumeCampaign],
    ['cancel', 'Cancel a draft, scheduled, sending or paused e-mail', cancelCampaign],
  ] as const;
  for (const [path, summary, action] of moves) {
    app.post(
      `/:id/${path}`,
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary,
          params: IdParams,
          response: { 200: Campaign, ...errorResponses(401, 402, 403, 404, 409) },
        },
      },
      async (req) => action(lifecycle(), tenantOf(req), req.params.id),
    );
  }
};
