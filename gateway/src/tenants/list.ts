/**
 * The admin tenant list (GET /v1/tenants, spec sections 3 and 7): the query's conditions, one page of
 * tenants and each page row's admin figures. Figures come from counters (contact_counts, email_usage)
 * and are read for the page's ids only, so a page costs the same with ten or ten thousand tenants.
 * Deleted tenants never appear.
 */
import { and, asc, count, desc, eq, gte, inArray, isNull, lt, type SQL, sql } from 'drizzle-orm';
import { PLAN_KEYS, type Tenant, type TenantBillingState, type TenantListQuery } from '../contracts';
import type { Database } from '../db/index';
import { billingAccounts, plans, tenants, users } from '../db/schema';
import { badRequest, INVALID_INPUT } from '../errors';
import { isUuid } from '../lib/db-helpers';
import { likePattern, pageWindow } from '../lib/pagination';
import { intOf, queryRows, textOf } from '../lib/raw-sql';
import { emailAllowances, periodSentSql } from '../campaigns/index';
import { dateBounds, parseFilters } from './list-query';
import { platformTenantId } from './platform';
import { tenantColumns, toTenant, toUserSummary } from './tenant-record';

/**
 * A tenant's billing state (contract TENANT_BILLING_STATES): canceled when its subscription is,
 * past_due while the subscription is active on a failing payment method, active while it is active,
 * no_billing without a subscription (no billing customer).
 */
export const billingStateSql: SQL<TenantBillingState> = sql<TenantBillingState>`coalesce((
  select case when s.status = 'canceled' then 'canceled'
              when coalesce(ba.payment_method_failing, false) then 'past_due'
              else 'active' end
    from subscriptions s left join billing_accounts ba on ba.tenant_id = s.tenant_id
   where s.tenant_id = ${tenants.id}), 'no_billing')`;

/** Contacts of a tenant, from the per-status counters. */
const contactsSql = sql<number>`(select coalesce(sum(cc.n), 0)::int from contact_counts cc where cc.tenant_id = ${tenants.id})`;

/** Plans in the catalogue's order (basic first). */
const planOrderSql = sql`array_position(array[${sql.join(
  PLAN_KEYS.map((k) => sql`${k}`),
  sql`, `,
)}]::text[], ${plans.key})`;

/**
 * The conditions of a tenant list query (every page, the stats too); the caller joins `plans`.
 * Bad dates, filters, list or tenant ids are a 400.
 */
export async function tenantConditions(db: Database, q: TenantListQuery, now: Date): Promise<SQL | undefined> {
  const conditions: SQL[] = [isNull(tenants.deletedAt)];
  const search = q.searchString.trim();
  if (search) {
    // The tenant's name or an owner's (tenant admin's) e-mail.
    const pattern = likePattern(search);
    conditions.push(
      sql`(${tenants.name} ilike ${pattern} or exists (select 1 from users ou where ou.tenant_id = ${tenants.id}
             and ou.role = 'tenant_admin' and ou.email ilike ${pattern}))`,
    );
  }
  const bounds = dateBounds(q, now);
  if (bounds.from) conditions.push(gte(tenants.createdAt, bounds.from));
  if (bounds.to) conditions.push(lt(tenants.createdAt, bounds.to));

  const filters = parseFilters(q);
  if (filters.plan) conditions.push(filters.plan.length ? inArray(plans.key, filters.plan as never) : sql`false`);
  if (filters.billing_state) {
    conditions.push(
      filters.billing_state.length
        ? sql`${billingStateSql} in (${sql.join(
            filters.billing_state.map((v) => sql`${v}`),
            sql`, `,
          )})`
        : sql`false`,
    );
  }
  if (filters.sending_paused) {
    const values = filters.sending_paused.map((v) => v === 'true');
    conditions.push(values.length ? inArray(tenants.sendingPaused, values) : sql`false`);
  }

  if (q.tenantId !== undefined) {
    if (!isUuid(q.tenantId)) throw badRequest(INVALID_INPUT, { tenantId: ['Unknown tenant.'] });
    conditions.push(eq(tenants.id, q.tenantId));
  }
  if (q.listId !== undefined) {
    const platform = await platformTenantId(db);
    const [list] =
      platform && isUuid(q.listId)
        ? await queryRows(db, sql`select id from lists where id = ${q.listId} and tenant_id = ${platform}`)
        : [];
    if (!list || !platform) throw badRequest(INVALID_INPUT, { listId: ['Choose a list of the platform tenant.'] });
    // Tenants whose owner's e-mail is a contact in that list of the platform tenant.
    conditions.push(
      sql`exists (select 1 from users ou
                    join contacts c on c.tenant_id = ${platform}::uuid
                                   and lower(c.email) collate "C" = lower(ou.email) collate "C"
                    join list_members lm on lm.contact_id = c.id and lm.list_id = ${q.listId}::uuid
                   where ou.tenant_id = ${tenants.id} and ou.role = 'tenant_admin')`,
    );
  }
  return and(...conditions);
}

function orderOf(q: TenantListQuery, now: Date): SQL[] {
  const direction = q.sortOrder === 'asc' ? asc : desc;
  const column: SQL | typeof tenants.createdAt = {
    created_at: tenants.createdAt,
    name: sql`lower(${tenants.name})`,
    contacts: contactsSql,
    emails_sent: periodSentSql(sql`${tenants.id}`, now),
    plan: planOrderSql,
  }[q.sortField];
  // Ties in the same direction by creation and id, so pages never overlap.
  return [direction(column), direction(tenants.createdAt), direction(tenants.id)];
}

/** Adds each record's admin figures and settings (one query per kind for the whole page). */
export async function withAdminFigures(db: Database, records: Tenant[], now: Date): Promise<void> {
  if (records.length === 0) return;
  const ids = records.map((r) => r._id);
  const allowances = await emailAllowances(db, ids, now);
  const idList = sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const contacts = new Map(
    (
      await queryRows(
        db,
        sql`select tenant_id::text as id, coalesce(sum(n), 0)::int as n from contact_counts
             where tenant_id in (${idList}) group by tenant_id`,
      )
    ).map((r) => [String(textOf(r, 'id')), intOf(r, 'n')]),
  );
  const settings = await db
    .select({
      id: tenants.id,
      stripeCustomerId: tenants.stripeCustomerId,
      override: tenants.emailVolumeOverride,
      paused: tenants.sendingPaused,
      applets: tenants.enabledApplets,
      taxRate: billingAccounts.taxRate,
      billingState: billingStateSql,
    })
    .from(tenants)
    .leftJoin(billingAccounts, eq(billingAccounts.tenantId, tenants.id))
    .where(inArray(tenants.id, ids));
  const byId = new Map(settings.map((s) => [s.id, s]));
  for (const record of records) {
    const s = byId.get(record._id);
    const a = allowances.get(record._id);
    record.admin = {
      contacts: contacts.get(record._id) ?? 0,
      emails_sent: a?.used ?? 0,
      email_volume: a?.limit ?? 0,
      billing_state: s?.billingState ?? 'no_billing',
      settings: {
        tax_rate: Number(s?.taxRate ?? 0),
        email_volume_override: s?.override ?? null,
        enabled_applets: s?.applets ?? [],
        billing_customer_id: s?.stripeCustomerId ?? null,
        sending_paused: s?.paused ?? false,
      },
    };
  }
}

/** Adds each record's users (oldest first) and owner: its first tenant admin. */
export async function withUsers(db: Database, records: Tenant[]): Promise<void> {
  if (records.length === 0) return;
  const members = await db
    .select({
      id: users.id,
      tenantId: users.tenantId,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      role: users.role,
      permissions: users.permissions,
      features: plans.features,
    })
    .from(users)
    .leftJoin(tenants, eq(tenants.id, users.tenantId))
    .leftJoin(plans, eq(plans.id, tenants.planId))
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

/** One page of tenants with their admin figures, optionally with each tenant's owner and users. */
export async function listTenants(
  db: Database,
  q: TenantListQuery,
  now: Date,
): Promise<{ records: Tenant[]; count: number }> {
  const where = await tenantConditions(db, q, now);
  const [total] = await db
    .select({ n: count() })
    .from(tenants)
    .innerJoin(plans, eq(plans.id, tenants.planId))
    .where(where);
  const { offset, limit } = pageWindow(q.page, q.perPage);
  const rows = await db
    .select(tenantColumns)
    .from(tenants)
    .innerJoin(plans, eq(plans.id, tenants.planId))
    .where(where)
    .orderBy(...orderOf(q, now))
    .limit(limit)
    .offset(offset);
  const records = rows.map(toTenant);
  await withAdminFigures(db, records, now);
  if (q.includeOwner) await withUsers(db, records);
  return { records, count: total?.n ?? 0 };
}

/** One tenant with its admin figures, owner and users (the detail slide-over), or null when gone. */
export async function tenantDetail(db: Database, tenantId: string, now: Date): Promise<Tenant | null> {
  if (!isUuid(tenantId)) return null;
  const [row] = await db
    .select(tenantColumns)
    .from(tenants)
    .innerJoin(plans, eq(plans.id, tenants.planId))
    .where(and(eq(tenants.id, tenantId), isNull(tenants.deletedAt)));
  if (!row) return null;
  const record = toTenant(row);
  await withAdminFigures(db, [record], now);
  await withUsers(db, [record]);
  return record;
}
