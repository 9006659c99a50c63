/**
 * Tenant administration by platform admins (spec sections 2, 3, 7 and 8; permission admin_tenants,
 * see guard.ts): the list, its options and stats, create, detail, edit, settings, delete and resending
 * the welcome e-mail. Every error is returned to the caller (400 with field errors, 404, 409).
 */
import * as z from 'zod/mini';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MessageResponse,
  PLAN_KEYS,
  TENANT_BILLING_STATES,
  TENANT_DATE_RANGES,
  Tenant,
  TenantCreateBody,
  TenantListQuery,
  TenantOptions,
  TenantPage,
  TenantSettingsBody,
  TenantStats,
  TenantUpdateBody,
} from '../contracts';
import { authOf } from '../auth';
import { notFound } from '../errors';
import { bearer, errorResponses } from '../lib/openapi';
import { paginate } from '../lib/pagination';
import { plans } from '../db/schema';
import { createTenant } from './create';
import { markTenantDeleted } from './delete-job';
import { requireTenantAdmin } from './guard';
import { listTenants, tenantDetail } from './list';
import { platformLists } from './platform';
import { tenantStats } from './stats';
import { TENANT_NOT_FOUND, updateTenant, updateTenantSettings } from './update';
import { resendWelcome } from './welcome';

const tags = ['tenants'];
const Params = z.object({ id: z.string() });

const BILLING_STATE_LABELS: Record<(typeof TENANT_BILLING_STATES)[number], string> = {
  no_billing: 'No billing',
  active: 'Active',
  past_due: 'Past due',
  canceled: 'Canceled',
};
const DATE_RANGE_LABELS: Record<(typeof TENANT_DATE_RANGES)[number], string> = {
  all_time: 'All time',
  today: 'Today',
  last_7_days: 'Last 7 days',
  last_30_days: 'Last 30 days',
  this_month: 'This month',
  last_month: 'Last month',
  this_year: 'This year',
  custom: 'Custom range',
};

export const tenantAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  const { db } = deps;
  const detail = async (id: string) => {
    const tenant = await tenantDetail(db, id, deps.clock());
    if (!tenant) throw notFound(TENANT_NOT_FOUND);
    return tenant;
  };

  app.get(
    '',
    {
      onRequest: requireTenantAdmin,
      schema: {
        tags,
        security: bearer,
        summary: 'List tenants (platform admins)',
        description:
          'The tenant list query of spec section 3. Search on name and owner e-mail; dateRange on created_at ' +
          '(UTC); filters as JSON `{"plan":["startup"],"billing_state":["past_due"],"sending_paused":["true"]}`; ' +
          "listId: tenants whose owner's e-mail is in that list of the platform tenant. Deleted tenants never appear.",
        querystring: TenantListQuery,
        response: { 200: TenantPage, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      const { records, count } = await listTenants(db, req.query, deps.clock());
      return { records, pagination: paginate(req.query.page, req.query.perPage, count) };
    },
  );

  app.get(
    '/options',
    {
      onRequest: requireTenantAdmin,
      schema: {
        tags,
        security: bearer,
        summary: "The tenant list filters' choices",
        description:
          "Plans (value: the plan key, as filterValue takes it), billing states, date ranges and the platform tenant's lists (value: the list id, for listId).",
        response: { 200: TenantOptions, ...errorResponses(401, 403) },
      },
    },
    async () => {
      const rows = await db.select({ key: plans.key, name: plans.name }).from(plans);
      rows.sort((a, b) => PLAN_KEYS.indexOf(a.key) - PLAN_KEYS.indexOf(b.key));
      return {
        plans: rows.map((p) => ({ value: p.key, label: p.name })),
        billing_states: TENANT_BILLING_STATES.map((s) => ({ value: s, label: BILLING_STATE_LABELS[s] })),
        date_ranges: TENANT_DATE_RANGES.map((r) => ({ value: r, label: DATE_RANGE_LABELS[r] })),
        lists: (await platformLists(db)).map((l) => ({ value: l.id, label: l.name })),
      };
    },
  );

  app.get(
    '/stats',
    {
      onRequest: requireTenantAdmin,
      schema: {
        tags,
        security: bearer,
        summary: 'Figures over the tenants a list query selects (every page)',
        querystring: TenantListQuery,
        response: { 200: TenantStats, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => tenantStats(db, req.query, deps.clock()),
  );

  app.post(
    '',
    {
      onRequest: requireTenantAdmin,
      schema: {
        tags,
        security: bearer,
        summary: 'Create a tenant, its community and its owner',
        description: 'The owner gets a welcome e-mail with a link to set a password (valid 7 days).',
        body: TenantCreateBody,
        response: { 201: Tenant, ...errorResponses(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const id = await createTenant(deps, req.body);
      return reply.code(201).send(await detail(id));
    },
  );

  app.get(
    '/:id',
    {
      onRequest: requireTenantAdmin,
      schema: {
        tags,
        security: bearer,
        summary: 'A tenant with its admin figures, owner and users',
        params: Params,
        response: { 200: Tenant, ...errorResponses(401, 403, 404) },
      },
    },
    async (req) => detail(req.params.id),
  );

  app.patch(
    '/:id',
    {
      onRequest: requireTenantAdmin,
      schema: {
        tags,
        security: bearer,
        summary: "Edit a tenant's name or plan",
        description:
          'A body with last_warning_sent_date or last_limit_sent_date (or any other field) is a 400. ' +
          "A plan change takes effect at once for the tenant's sessions.",
        params: Params,
        body: TenantUpdateBody,
        response: { 200: Tenant, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await updateTenant(db, req.params.id, req.body);
      return detail(req.params.id);
    },
  );

  app.patch(
    '/:id/settings',
    {
      onRequest: requireTenantAdmin,
      schema: {
        tags,
        security: bearer,
        summary: "Change a tenant's settings",
        description:
          "Tax rate 0–100, e-mail volume override (null: the plan's), enabled applets (ids of existing " +
          'applets), billing customer id, sending paused (campaign sends wait until unpaused).',
        params: Params,
        body: TenantSettingsBody,
        response: { 200: Tenant, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await updateTenantSettings(db, deps.jobs, req.params.id, req.body);
      return detail(req.params.id);
    },
  );

  app.delete(
    '/:id',
    {
      onRequest: requireTenantAdmin,
      schema: {
        tags,
        security: bearer,
        summary: 'Delete a tenant',
        description:
          "Gone at once from lists, its users' sessions end and they cannot sign in; its data is removed by a " +
          'background job. The platform tenant (400) and your own tenant (409) cannot be deleted.',
        params: Params,
        response: { 200: MessageResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (req) => {
      await markTenantDeleted(db, deps.jobs, req.params.id, authOf(req).tenantId, deps.clock());
      return { message: 'The tenant was deleted.' };
    },
  );

  app.get(
    '/:id/resend-welcome-email',
    {
      onRequest: requireTenantAdmin,
      schema: {
        tags,
        security: bearer,
        summary: 'Send the owner a new welcome link',
        description: 'Earlier links stop working. 409 once the owner has set a password (they sign in or reset it).',
        params: Params,
        response: { 200: MessageResponse, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (req) => {
      const tenant = await detail(req.params.id);
      await resendWelcome(deps, tenant.owner ? { id: tenant.owner._id } : null, tenant.name);
      return { message: 'The welcome e-mail was sent again.' };
    },
  );
};
