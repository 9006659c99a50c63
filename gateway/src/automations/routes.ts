/**
 * The automations API (spec section 2: engagement/automations; docs/automations.md): the grid, create,
 * read with the current version's problems, edit the draft, activate, pause, resume, delete, the
 * journeys (the automation log), and the API trigger. Permission automations (the plan's feature too);
 * the trigger also takes API keys of scope sending or full. Every call is scoped to the caller's tenant
 * (another tenant's automation is 404).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import * as z from 'zod/mini';
import {
  Automation,
  AUTOMATION_LIMITS,
  AUTOMATION_MESSAGES as M,
  AutomationDetail,
  AutomationInput,
  AutomationInvalid,
  AutomationListQuery,
  AutomationPage,
  AutomationPatch,
  AutomationTriggered,
  AutomationTriggerInput,
  JourneyListQuery,
  JourneyPage,
} from '../contracts';
import { authOf, requireAnyPermission, requirePermission, tenantOf } from '../auth/index';
import { badRequest, forbidden, HttpError, INVALID_INPUT, notFound } from '../errors';
import { bearer, errorResponses } from '../lib/openapi';
import { IdParams } from '../lib/route-params';
import { queryRows } from '../lib/raw-sql';
import { normaliseEmail, normaliseWallet } from '../audience/index';
import { enterContacts } from './journeys';
import { listJourneys } from './log';
import {
  activateAutomation,
  automationRow,
  createAutomation,
  deleteAutomation,
  getAutomation,
  listAutomations,
  setPaused,
  toAutomation,
  updateAutomation,
} from './store';

const tags = ['automations'];

export interface RouteOptions {
  /** Asks the runner for a pass now (a contact just entered through the API). */
  wake: () => void;
}

export const automationRoutes =
  ({ wake }: RouteOptions): FastifyPluginAsyncZod =>
  async (app) => {
    const { db, clock } = app.deps;
    const onRequest = requirePermission('automations');

    app.get(
      '',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: "The community's automations",
          description:
            'Permission automations. Search on the name; sorts created_at (default), updated_at, name, status, entered. ' +
            'Each row: the trigger type, the status, and the contacts entered and completed and e-mails sent.',
          querystring: AutomationListQuery,
          response: { 200: AutomationPage, ...errorResponses(400, 401, 403) },
        },
      },
      async (req) => listAutomations(db, tenantOf(req), req.query),
    );

    app.post(
      '',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: 'Create an automation (a draft)',
          description: 'Permission automations. The graph may be incomplete: problems are listed, not refused.',
          body: AutomationInput,
          response: { 201: AutomationDetail, ...errorResponses(400, 401, 403) },
        },
      },
      async (req, reply) => {
        const tenantId = tenantOf(req);
        const id = await createAutomation(db, tenantId, req.body);
        return reply.code(201).send(await getAutomation(db, tenantId, id));
      },
    );

    app.get(
      '/:id',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: 'An automation with its current version and its problems',
          description: 'Permission automations. The current version is the draft while one is being edited.',
          params: IdParams,
          response: { 200: AutomationDetail, ...errorResponses(401, 403, 404) },
        },
      },
      async (req) => getAutomation(db, tenantOf(req), req.params.id),
    );

    app.patch(
      '/:id',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: "Rename an automation, or edit its draft's graph and re-entry rule",
          description:
            'Permission automations. Editing an activated version makes a new draft version; contacts already ' +
            'inside finish on theirs, and new ones enter the active version until the draft is activated.',
          params: IdParams,
          body: AutomationPatch,
          response: { 200: AutomationDetail, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) => {
        const tenantId = tenantOf(req);
        await updateAutomation(db, tenantId, req.params.id, req.body);
        return getAutomation(db, tenantId, req.params.id);
      },
    );

    app.post(
      '/:id/activate',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: 'Activate the current version',
          description:
            'Permission automations. 400 with every problem (each naming its node) when the journey cannot run.',
          params: IdParams,
          response: { 200: AutomationDetail, 400: AutomationInvalid, ...errorResponses(401, 403, 404) },
        },
      },
      async (req, reply) => {
        const tenantId = tenantOf(req);
        const done = await activateAutomation(db, tenantId, req.params.id);
        if (!done.ok) return reply.code(400).send({ message: M.invalid, problems: done.problems });
        wake();
        return getAutomation(db, tenantId, req.params.id);
      },
    );

    for (const [action, paused] of [
      ['pause', true],
      ['resume', false],
    ] as const) {
      app.post(
        `/:id/${action}`,
        {
          onRequest,
          schema: {
            tags,
            security: bearer,
            summary: paused ? 'Pause an automation' : 'Resume an automation',
            description: paused
              ? 'Permission automations. Journeys keep their state and advance no further; triggers wait.'
              : 'Permission automations. Journeys go on from where they are; waits that ended meanwhile go on at once.',
            params: IdParams,
            response: { 200: Automation, ...errorResponses(400, 401, 403, 404) },
          },
        },
        async (req) => {
          const tenantId = tenantOf(req);
          await setPaused(db, tenantId, req.params.id, paused);
          if (!paused) wake();
          return toAutomation(await automationRow(db, tenantId, req.params.id));
        },
      );
    }

    app.delete(
      '/:id',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: 'Delete an automation',
          description: 'Permission automations. Its journeys and log go with it; e-mails already accepted are sent.',
          params: IdParams,
          response: { 204: z.null(), ...errorResponses(401, 403, 404) },
        },
      },
      async (req, reply) => {
        await deleteAutomation(db, tenantOf(req), req.params.id);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/:id/journeys',
      {
        onRequest,
        schema: {
          tags,
          security: bearer,
          summary: "An automation's journeys (the automation log)",
          description:
            'Permission automations. Newest first; search on the contact e-mail or wallet. Each journey: the ' +
            'contact, the version, the state, the current step, when it entered and the steps taken.',
          params: IdParams,
          querystring: JourneyListQuery,
          response: { 200: JourneyPage, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) => listJourneys(db, tenantOf(req), req.params.id, req.query),
    );

    app.post(
      '/:id/trigger',
      {
        // Sessions need the automations permission; API keys of scope sending or full may call it.
        onRequest: requireAnyPermission('automations', 'transactional_emails'),
        bodyLimit: 64 * 1024,
        schema: {
          tags,
          security: bearer,
          summary: 'Start an API-triggered automation for a contact',
          description:
            'Permission automations (API keys: sending or full scope). The contact by `email` or `wallet`; `data` ' +
            "is merged as `data.*`. 202 with whether the contact entered (the automation's re-entry rule may keep " +
            'it out). 404 when no contact has the address; 400 when the automation is not active or not API-triggered.',
          params: IdParams,
          body: AutomationTriggerInput,
          response: { 202: AutomationTriggered, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req, reply) => {
        const auth = authOf(req);
        if (!auth.features.includes('automations') || (!auth.apiKey && !auth.permissions.includes('automations')))
          throw forbidden();
        const tenantId = tenantOf(req);
        if (JSON.stringify(req.body.data ?? {}).length > AUTOMATION_LIMITS.dataChars)
          throw badRequest(INVALID_INPUT, { data: ['The data is too large.'] });
        const row = await automationRow(db, tenantId, req.params.id);
        if (row.status !== 'active') throw badRequest(M.notActive);
        const [a] = await queryRows(
          db,
          sql`select trigger_type, active_version from automations where id = ${req.params.id}::uuid`,
        );
        if (a?.trigger_type !== 'api_call') throw badRequest(M.notApiTriggered);
        const contactId = await findContact(req.body.email, req.body.wallet);
        const made = await db.transaction((tx) =>
          enterContacts(
            tx,
            { automationId: req.params.id, tenantId, version: Number(a.active_version) },
            [{ contactId, context: { data: req.body.data ?? {} } }],
            clock(),
          ),
        );
        const journey = made.get(contactId);
        if (journey !== undefined) wake();
        return reply
          .code(202)
          .send({ entered: journey !== undefined, journey_id: journey === undefined ? null : String(journey) });

        async function findContact(email: string | undefined, wallet: string | undefined): Promise<string> {
          const errors: Record<string, string[]> = {};
          let match;
          if (email) {
            const e = normaliseEmail(email);
            if (!e.ok || !e.value) errors.email = ['Enter a valid e-mail address.'];
            else match = sql`lower(email) collate "C" = lower(${e.value})`;
          } else if (wallet) {
            const w = normaliseWallet(wallet);
            if (!w.ok || !w.value) errors.wallet = [w.ok ? 'Enter a wallet address.' : w.reason];
            else match = sql`lower(wallet) collate "C" = lower(${w.value})`;
          } else {
            errors.email = ['Give the contact’s e-mail or wallet.'];
          }
          if (!match) throw new HttpError(400, INVALID_INPUT, errors);
          const [c] = await queryRows(
            db,
            sql`select id::text from contacts where tenant_id = ${tenantId}::uuid and ${match} limit 1`,
          );
          if (!c) throw notFound(M.contactNotFound);
          return String(c.id);
        }
      },
    );
  };
