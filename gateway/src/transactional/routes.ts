/**
 * The transactional API (spec section 2: engagement/transactional-emails; docs/transactional.md):
 * send and batch with an Idempotency-Key, a message's status, the templates' grid, a template's
 * detail and settings, and its delivery log. Permission transactional_emails; every call is scoped to
 * the caller's tenant (another tenant's template or message is 404).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import {
  TransactionalBatch,
  TransactionalBatchResult,
  TransactionalMessage,
  TransactionalMessageStatus,
  TransactionalSent,
  TransactionalSettings,
  TransactionalTemplateDetail,
  TransactionalTemplatePage,
  TransactionalTemplateQuery,
  TRANSACTIONAL_LIMITS,
  text,
} from '../contracts';
import { requirePermission, tenantOf } from '../auth/index';
import { badRequest, HttpError, INVALID_INPUT, notFound } from '../errors';
import { foreignKeyViolation } from '../lib/db-helpers';
import { bearer, errorResponses } from '../lib/openapi';
import { IdParams } from '../lib/route-params';
import { carrierClaiming, enqueueCarrier, GroupCommit } from '../campaigns/index';
import {
  anyTemplateGone,
  checkVolume,
  planMessage,
  TEMPLATE_NOT_FOUND,
  UNSUBSCRIBED,
  requestHash,
  transactionalTemplate,
  writeMessages,
  type Accepted,
  type Planned,
} from './accept';
import { CarrierKicks } from './kicks';
import { applySettingsToCarriers } from './carriers';
import { releaseKey, takeKey, type Answered } from './idempotency';
import { messageStatus } from './messages';
import { readSettings, writeSettings } from './settings';
import { sharedContactLookups } from './contact-lookups';
import { startTemplateCache, transactionalTemplatesChanged } from './template-cache';
import { listTransactionalTemplates, templateStats } from './stats';

const tags = ['transactional'];
const KeyHeaders = z.object({ 'idempotency-key': z.optional(text(TRANSACTIONAL_LIMITS.idempotencyKey)) });

export const transactionalRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, jobs, clock } = app.deps;
  const onRequest = requirePermission('transactional_emails');
  // The requests that wait while a write runs share the next one (campaigns' group commit). No
  // gathering: a tenant's requests are admitted a few at a time (lib/admission.ts), so waiting for
  // more would only add its delay.
  const writes = new GroupCommit<Accepted, boolean, never>((accepted) => writeMessages(db, accepted));
  const contactOf = sharedContactLookups(db);
  app.addHook('onReady', () => startTemplateCache(db));
  // A carrier whose run claims in this process needs no new run: that run claims the message, or its
  // settle finds it (campaigns' sender/carrier.ts `whileClaiming`); a queued job costs a statement.
  const kicks = new CarrierKicks(
    async (carrier) => (carrierClaiming(carrier) ? undefined : enqueueCarrier(jobs, carrier)),
    (error) => app.log.error({ err: error }, 'a transactional carrier run could not be queued'),
  );

  /**
   * Writes a request's messages. A template deleted while its group was written (the deletion locks
   * the template's row and refuses while messages wait: carriers.ts `queuedRefusal`) fails the whole
   * group on the messages' reference: each request then answers 404 if its template is gone, and is
   * written again otherwise.
   */
  async function write(item: Accepted): Promise<void> {
    let refused: boolean;
    try {
      refused = await writes.request(item);
    } catch (error) {
      if (!foreignKeyViolation(error)) throw error;
      const ids = item.planned.map((m) => m.templateId);
      if (await anyTemplateGone(db, ids)) throw notFound(TEMPLATE_NOT_FOUND);
      refused = await writes.request(item);
    }
    // Its contact, looked up by the write, is unsubscribed and the template does not send to them.
    if (refused) throw badRequest(UNSUBSCRIBED, { to: [UNSUBSCRIBED] });
  }

  /**
   * Runs `work` once per Idempotency-Key: its planned messages and its answer are written in one
   * statement; the carriers' runs are asked for after it (kicks.ts).
   */
  async function idempotent(
    tenantId: string,
    key: string | undefined,
    hash: string,
    work: () => Promise<{ planned: Planned[]; answer: Answered }>,
  ): Promise<Answered> {
    if (key !== undefined && key.trim() === '')
      throw badRequest(INVALID_INPUT, { 'Idempotency-Key': ['Give a non-empty key.'] });
    if (key) {
      const earlier = await takeKey(db, tenantId, key, hash);
      if (earlier) return earlier;
    }
    try {
      const { planned, answer } = await work();
      await write({ tenantId, planned, idempotency: key ? { key, ...answer } : null });
      for (const carrier of new Set(planned.map((m) => m.carrierId))) kicks.kick(carrier);
      return answer;
    } catch (error) {
      if (key) await releaseKey(db, tenantId, key).catch(() => undefined);
      throw error;
    }
  }

  app.post(
    '/send',
    {
      onRequest,
      // Its one statement (the contact's lookup in the write) is shared by the sends waiting meanwhile
      // (a group commit): wider lanes.
      config: { admission: 'shared' },
      bodyLimit: 256 * 1024,
      schema: {
        tags,
        security: bearer,
        summary: 'Send a transactional e-mail',
        description:
          'Permission transactional_emails (API keys: sending or full scope). The template must be one of the ' +
          "tenant's transactional templates (404 otherwise). `to` is an e-mail or a wallet address. Every merge " +
          'variable the template reads must be in `data` (400 lists the missing ones as `data.<name>`). `from` ' +
          "must be the platform's address or on a verified domain. Attachments are refused (400). The same " +
          'Idempotency-Key within 24 h answers the first answer and sends once; with another body, 409. Over the ' +
          "plan's volume: 402.",
        headers: KeyHeaders,
        body: TransactionalMessage,
        response: { 202: TransactionalSent, ...errorResponses(400, 401, 402, 403, 404, 409) },
      },
    },
    async (req, reply) => {
      const tenantId = tenantOf(req);
      const answer = await idempotent(
        tenantId,
        req.headers['idempotency-key'],
        requestHash('send', req.body),
        async () => {
          const planned = await planMessage(db, config, tenantId, req.body, 'in-write');
          await checkVolume(db, tenantId, 1, clock());
          return { planned: [planned], answer: { status: 202, body: { message_id: planned.messageId } } };
        },
      );
      return reply.code(202).send(answer.body as TransactionalSent);
    },
  );

  app.post(
    '/batch',
    {
      onRequest,
      config: { admission: 'shared' },
      bodyLimit: 4 * 1024 * 1024,
      schema: {
        tags,
        security: bearer,
        summary: 'Send up to 100 transactional e-mails',
        description:
          'Permission transactional_emails. Each message is checked as by /send and answered in order with its ' +
          'message_id (status 202) or its error (status and body); one Idempotency-Key covers the batch. Over ' +
          "the plan's volume for the accepted ones: 402 for the whole batch.",
        headers: KeyHeaders,
        body: TransactionalBatch,
        response: { 200: TransactionalBatchResult, ...errorResponses(400, 401, 402, 403, 409) },
      },
    },
    async (req) => {
      const tenantId = tenantOf(req);
      const answer = await idempotent(
        tenantId,
        req.headers['idempotency-key'],
        requestHash('batch', req.body),
        async () => {
          const planned: Planned[] = [];
          const results: TransactionalBatchResult['results'] = [];
          for (const msg of req.body.messages) {
            try {
              const m = await planMessage(db, config, tenantId, msg, contactOf);
              planned.push(m);
              results.push({ message_id: m.messageId, status: 202 });
            } catch (error) {
              if (!(error instanceof HttpError)) throw error;
              results.push({
                status: error.statusCode,
                error: error.errors ? { message: error.message, errors: error.errors } : { message: error.message },
              });
            }
          }
          if (planned.length > 0) await checkVolume(db, tenantId, planned.length, clock());
          return { planned, answer: { status: 200, body: { results } } };
        },
      );
      return answer.body as TransactionalBatchResult;
    },
  );

  app.get(
    '/messages/:id',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: "A transactional message's status and events",
        description: "Permission transactional_emails. Another tenant's message is 404.",
        params: IdParams,
        response: { 200: TransactionalMessageStatus, ...errorResponses(401, 403, 404) },
      },
    },
    async (req) => messageStatus(db, tenantOf(req), req.params.id),
  );

  app.get(
    '/templates',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: "The tenant's transactional templates with their figures",
        description:
          'Permission transactional_emails. Search on the name; sorts updated_at (default), name, last_sent_at. ' +
          'sent_30_days counts messages handed over; rates are over all messages sent.',
        querystring: TransactionalTemplateQuery,
        response: { 200: TransactionalTemplatePage, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => listTransactionalTemplates(db, tenantOf(req), req.query),
  );

  app.get(
    '/templates/:id',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: 'A transactional template: its merge variables and settings',
        description: 'Permission transactional_emails.',
        params: IdParams,
        response: { 200: TransactionalTemplateDetail, ...errorResponses(401, 403, 404) },
      },
    },
    async (req) => {
      const t = await transactionalTemplate(db, tenantOf(req), req.params.id);
      const [settings, stats] = await Promise.all([readSettings(db, t.id), templateStats(db, t.id)]);
      return { _id: t.id, name: t.name, variables: t.variables, settings, stats };
    },
  );

  app.put(
    '/templates/:id/settings',
    {
      onRequest,
      schema: {
        tags,
        security: bearer,
        summary: "A transactional template's settings",
        description:
          'Permission transactional_emails. send_to_unsubscribed (on: receipts reach everyone; off: an ' +
          'unsubscribed address is refused with 400), open and click tracking.',
        params: IdParams,
        body: TransactionalSettings,
        response: { 200: TransactionalSettings, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      const tenantId = tenantOf(req);
      const t = await transactionalTemplate(db, tenantId, req.params.id);
      await writeSettings(db, tenantId, t.id, req.body);
      transactionalTemplatesChanged(db, tenantId);
      await applySettingsToCarriers(db, t.id, req.body);
      return req.body;
    },
  );
};
