import { and, asc, count, desc, eq, gte, ilike, inArray, type SQL, sql } from 'drizzle-orm';
import type { Tenant, TenantListQuery, UserSummary } from '../contracts';
import { likePattern, pageWindow } from '../lib/pagination';
import type { Database } from './index';
import { plans, tenants, users } from './schema';

const DAYS: Record<TenantListQuery['dateRange'], number | null> = {
  all_time: null,
  last_7_days: 7,
  last_30_days: 30,
  // Calendar ranges come with the admin list query's rules (not yet here).
  today: 1,
  this_month: 31,
  last_month: 62,
  this_year: 366,
  custom: null,
};

const tenantColumns = {
  id: tenants.id,
  name: tenants.name,
  stripeCustomerId: tenants.stripeCustomerId,
  lastWarningSentDate: tenants.lastWarningSentDate,
  lastLimitSentDate: tenants.lastLimitSentDate,
  createdAt: tenants.createdAt,
  plan: { id: plans.id, key: plans.key, name: plans.name },
};

type TenantRecord = {
  id: string;
  name: string;
  stripeCustomerId: string | null;
  lastWarningSentDate: string | null;
  lastLimitSentDate: string | null;
  createdAt: Date;
  plan: { id: string; key: Tenant['plan']['key']; name: string };
};

function toTenant(t: TenantRecord): Tenant {
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

const userSummaryColumns = {
  id: users.id,
  tenantId: users.tenantId,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  role: users.role,
  createdAt: users.createdAt,
};

export function toUserSummary(u: {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: UserSummary['role'];
}): UserSummary {
  return { _id: u.id, email: u.email, first_name: u.firstName, last_name: u.lastName, role: u.role };
}

export async function getTenant(db: Database, tenantId: string): Promise<Tenant | null> {
  const [row] = await db
    .select(tenantColumns)
    .from(tenants)
    .innerJoin(plans, eq(plans.id, tenants.planId))
    .where(eq(tenants.id, tenantId));
  return row ? toTenant(row) : null;
}

/** One page of tenants (platform admins), optionally with each tenant's owner and users. */
export async function listTenants(db: Database, q: TenantListQuery): Promise<{ records: Tenant[]; count: number }> {
  const conditions: SQL[] = [];
  const search = q.searchString.trim();
  if (search) conditions.push(ilike(tenants.name, likePattern(search)));
  const days = DAYS[q.dateRange];
  if (days !== null) conditions.push(gte(tenants.createdAt, new Date(Date.now() - days * 86_400_000)));
  const where = conditions.length ? and(...conditions) : undefined;

  const [total] = await db.select({ n: count() }).from(tenants).where(where);
  const direction = q.sortOrder === 'asc' ? asc : desc;
  const sortColumn = q.sortField === 'name' ? sql`lower(${tenants.name})` : tenants.createdAt;
  const { offset, limit } = pageWindow(q.page, q.perPage);
  const rows = await db
    .select(tenantColumns)
    .from(tenants)
    .innerJoin(plans, eq(plans.id, tenants.planId))
    .where(where)
    .orderBy(direction(sortColumn), direction(tenants.id))
    .limit(limit)
    .offset(offset);
  const records = rows.map(toTenant);

  if (q.includeOwner && records.length > 0) {
    const members = await db
      .select(userSummaryColumns)
      .from(users)
      .where(
        inArray(
          users.tenantId,
          records.map((r) => r._id),
        ),
      )
      .orderBy(asc(users.createdAt), asc(users.id));
    for (const record of records) {
      const own = members.filter((m) => m.tenantId === record._id);
      const owner = own.find((m) => m.role === 'tenant_admin');
      record.owner = owner ? toUserSummary(owner) : null;
      record.users = own.map(toUserSummary);
    }
  }
  return { records, count: total?.n ?? 0 };
}
