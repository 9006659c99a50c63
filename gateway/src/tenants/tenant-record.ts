/**
 * A tenant as the API returns it (contract `Tenant`), read with its plan; the signed-in user's tenant
 * (`GET /v1/tenants/current`) and the admin list share it. A deleted tenant (deleted_at set) is gone
 * for every reader.
 */
import { and, eq, isNull } from 'drizzle-orm';
import { presetOf, type Feature, type Permission, type Tenant, type UserSummary } from '../contracts';
import type { Database } from '../db/index';
import { plans, tenants } from '../db/schema';

export const tenantColumns = {
  id: tenants.id,
  name: tenants.name,
  stripeCustomerId: tenants.stripeCustomerId,
  lastWarningSentDate: tenants.lastWarningSentDate,
  lastLimitSentDate: tenants.lastLimitSentDate,
  createdAt: tenants.createdAt,
  plan: { id: plans.id, key: plans.key, name: plans.name },
};

export interface TenantRecord {
  id: string;
  name: string;
  stripeCustomerId: string | null;
  lastWarningSentDate: string | null;
  lastLimitSentDate: string | null;
  createdAt: Date;
  plan: { id: string; key: Tenant['plan']['key']; name: string };
}

export function toTenant(t: TenantRecord): Tenant {
  return {
    _id: t.id,
    name: t.name,
    plan: { _id: t.plan.id, key: t.plan.key, name: t.plan.name },
    stripe_customer_id: t.stripeCustomerId,
    last_warning_sent_date: t.lastWarningSentDate,
    last_limit_sent_date: t.lastLimitSentDate,
    created_at: t.createdAt.toISOString(),
  };
}

/** A tenant's user for the admins' panel, with the preset Manage Users reads their access as (presetOf). */
export function toUserSummary(u: {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: UserSummary['role'];
  permissions: Permission[];
  features: Feature[] | null;
}): UserSummary {
  return {
    _id: u.id,
    email: u.email,
    first_name: u.firstName,
    last_name: u.lastName,
    role: u.role,
    preset: presetOf(u.role, u.permissions, u.features ?? []),
  };
}

/** A tenant that is not deleted, or null. */
export async function getTenant(db: Database, tenantId: string): Promise<Tenant | null> {
  const [row] = await db
    .select(tenantColumns)
    .from(tenants)
    .innerJoin(plans, eq(plans.id, tenants.planId))
    .where(and(eq(tenants.id, tenantId), isNull(tenants.deletedAt)));
  return row ? toTenant(row) : null;
}
