import * as z from 'zod/mini';
import { listQuery, page } from '@console/shared/contracts/core';
import { PLAN_KEYS, ROLES } from '@console/shared/access';

export const UserSummary = z.object({
  _id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: z.enum(ROLES),
});
export type UserSummary = z.infer<typeof UserSummary>;

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
});
export type Tenant = z.infer<typeof Tenant>;

export const TENANT_SORT_FIELDS = ['created_at', 'name'] as const;
export const TenantListQuery = z.extend(listQuery(TENANT_SORT_FIELDS, 'created_at'), {
  /** A query string is text: "false" means false. */
  includeOwner: z._default(z.stringbool(), false),
  dateRange: z._default(z.enum(['all_time', 'last_7_days', 'last_30_days', 'last_90_days']), 'all_time'),
});
export type TenantListQuery = z.infer<typeof TenantListQuery>;
export const TenantPage = page(Tenant);
export type TenantPage = z.infer<typeof TenantPage>;
