/**
 * Tenants and their administration by platform admins (spec sections 2, 3, 7 and 8: `tenants`, permission
 * admin_tenants). The list query is the spec's tenant list query; `GET /v1/tenants/stats` takes the same
 * query and describes the same tenants the grid lists.
 */
import * as z from 'zod/mini';
import { listQuery, page, text, Email } from '@console/shared/contracts/core';
import { PLAN_KEYS, ROLES, TEAM_PRESETS } from '@console/shared/access';

export const UserSummary = z.object({
  _id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: z.enum(ROLES),
  /** The team preset the member's access reads as (presetOf), named by memberRoleName. */
  preset: z.enum(TEAM_PRESETS),
});
export type UserSummary = z.infer<typeof UserSummary>;

/** A tenant's billing state in the admin grid: no billing customer, paying, a failing payment method, canceled. */
export const TENANT_BILLING_STATES = ['no_billing', 'active', 'past_due', 'canceled'] as const;
export type TenantBillingState = (typeof TENANT_BILLING_STATES)[number];

/** The platform admin's settings of one tenant (PATCH /v1/tenants/{id}/settings). */
export const TenantSettings = z.object({
  /** Percent, 0–100, added to invoices. */
  tax_rate: z.number(),
  /** E-mails per billing period that replace the plan's volume; null: the plan's. */
  email_volume_override: z.nullable(z.int()),
  /** Applets enabled beyond those the plan includes. */
  enabled_applets: z.array(text(100)).check(z.maxLength(200)),
  /** The payment provider's customer id (spec section 3: stripe_customer_id); null: no automated billing. */
  billing_customer_id: z.nullable(text(255)),
  /** While true no campaign of this tenant sends (sends wait). */
  sending_paused: z.boolean(),
});
export type TenantSettings = z.infer<typeof TenantSettings>;

export const Tenant = z.object({
  _id: z.string(),
  name: z.string(),
  plan: z.object({ _id: z.string(), key: z.enum(PLAN_KEYS), name: z.string() }),
  stripe_customer_id: z.nullable(z.string()),
  last_warning_sent_date: z.nullable(z.string()),
  last_limit_sent_date: z.nullable(z.string()),
  created_at: z.string(),
  owner: z.optional(z.nullable(UserSummary)),
  users: z.optional(z.array(UserSummary)),
  /** Admin list and detail only (GET /v1/tenants, GET /v1/tenants/{id}). */
  admin: z.optional(
    z.object({
      contacts: z.int(),
      /** E-mails sent in the current billing period, and the volume they count against (override or plan). */
      emails_sent: z.int(),
      email_volume: z.int(),
      billing_state: z.enum(TENANT_BILLING_STATES),
      settings: TenantSettings,
    }),
  ),
});
export type Tenant = z.infer<typeof Tenant>;

/**
 * The spec's date ranges of the tenant list query (on `created_at`), the user's time zone being UTC on the
 * server; `custom` takes `dateFrom` and `dateTo` (YYYY-MM-DD, both included).
 */
export const TENANT_DATE_RANGES = [
  'all_time',
  'today',
  'last_7_days',
  'last_30_days',
  'this_month',
  'last_month',
  'this_year',
  'custom',
] as const;
export type TenantDateRange = (typeof TENANT_DATE_RANGES)[number];

/** Fields a tenant list can be filtered on (filterField/filterValue, or `filters`). */
export const TENANT_FILTER_FIELDS = ['plan', 'billing_state', 'sending_paused'] as const;
export type TenantFilterField = (typeof TENANT_FILTER_FIELDS)[number];

export const TENANT_SORT_FIELDS = ['created_at', 'name', 'contacts', 'emails_sent', 'plan'] as const;
const IsoDay = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date as YYYY-MM-DD.'));
export const TenantListQuery = z.extend(listQuery(TENANT_SORT_FIELDS, 'created_at'), {
  /** A query string is text: "false" means false. */
  includeOwner: z._default(z.stringbool(), false),
  dateRange: z._default(z.enum(TENANT_DATE_RANGES), 'all_time'),
  dateFrom: z.optional(IsoDay),
  dateTo: z.optional(IsoDay),
  /** One filter: the field and its value (a plan key, a billing state, "true"/"false"). */
  filterField: z.optional(z.enum(TENANT_FILTER_FIELDS)),
  filterValue: z.optional(text(100)),
  /** Several filters at once, as JSON: `{"plan":["startup","growup"],"billing_state":["past_due"]}` (AND of fields, OR within one). */
  filters: z.optional(text(2000)),
  /** Tenants whose owner's e-mail is in this list of the platform tenant (its audience of community owners). */
  listId: z.optional(text(100)),
  /** One tenant by id (the detail slide-over reads it the same way as the grid). */
  tenantId: z.optional(text(100)),
});
export type TenantListQuery = z.infer<typeof TenantListQuery>;
export const TenantPage = page(Tenant);
export type TenantPage = z.infer<typeof TenantPage>;

const Choice = z.object({ value: z.string(), label: z.string() });
/** GET /v1/tenants/options: the choices the grid's filters offer. */
export const TenantOptions = z.object({
  plans: z.array(Choice),
  billing_states: z.array(Choice),
  date_ranges: z.array(Choice),
  /** The platform tenant's lists (for listId). */
  lists: z.array(Choice),
});
export type TenantOptions = z.infer<typeof TenantOptions>;

const Point = z.object({ date: z.string(), value: z.number() });
/** GET /v1/tenants/stats: figures over exactly the tenants the same query lists (every page). */
export const TenantStats = z.object({
  tenants: z.int(),
  by_plan: z.array(z.object({ key: z.enum(PLAN_KEYS), name: z.string(), tenants: z.int() })),
  /** New tenants per day over the range (all_time: the last 90 days). */
  new_tenants: z.array(Point),
  contacts: z.int(),
  /** E-mails sent over the range (all_time: ever). */
  emails_sent: z.int(),
  /** Monthly recurring revenue in cents: each active subscription's price per month (yearly / 12, semi-annual / 6). */
  mrr_cents: z.int(),
  currency: z.string(),
});
export type TenantStats = z.infer<typeof TenantStats>;

/** POST /v1/tenants: the community is created with the tenant; the owner gets a welcome e-mail with a set-password link. */
export const TenantCreateBody = z.object({
  name: text(100, 'Use at most 100 characters.').check(z.minLength(1, 'Enter the tenant name.')),
  plan_id: text(100).check(z.minLength(1, 'Choose a plan.')),
  owner_first_name: text(100, 'Use at most 100 characters.').check(z.minLength(1, 'Enter the first name.')),
  owner_last_name: z._default(text(100, 'Use at most 100 characters.'), ''),
  owner_email: Email,
});
export type TenantCreateBody = z.infer<typeof TenantCreateBody>;

/**
 * PATCH /v1/tenants/{id}: name and plan. The body never carries last_warning_sent_date or
 * last_limit_sent_date (spec section 7): the plan-usage notices own them; a body with them is a 400.
 */
export const TenantUpdateBody = z.strictObject({
  name: z.optional(text(100, 'Use at most 100 characters.').check(z.minLength(1, 'Enter the tenant name.'))),
  plan_id: z.optional(text(100)),
});
export type TenantUpdateBody = z.infer<typeof TenantUpdateBody>;

/** PATCH /v1/tenants/{id}/settings: any subset of the settings. */
export const TenantSettingsBody = z.partial(TenantSettings);
export type TenantSettingsBody = z.infer<typeof TenantSettingsBody>;

/**
 * GET /v1/admin/dashboard (the super admin's Dashboard, spec section 2's admin sidebar): the platform at a
 * glance. `worst_senders` are the tenants with the highest bounce or complaint rate over the last 30 days
 * (at least 100 sent), flagged when above the thresholds mailbox providers act on.
 */
export const PlatformDashboard = z.object({
  tenants_by_plan: z.array(z.object({ key: z.enum(PLAN_KEYS), name: z.string(), tenants: z.int() })),
  /** Per day over the last 90 days. */
  new_tenants: z.array(Point),
  churned_tenants: z.array(Point),
  mrr_cents: z.int(),
  currency: z.string(),
  /** Per day over the last 30 days, every tenant. */
  emails_sent: z.array(Point),
  senders: z.array(
    z.object({
      tenant_id: z.string(),
      tenant_name: z.string(),
      sent: z.int(),
      bounce_rate: z.number(),
      complaint_rate: z.number(),
      flagged: z.boolean(),
    }),
  ),
});
export type PlatformDashboard = z.infer<typeof PlatformDashboard>;
