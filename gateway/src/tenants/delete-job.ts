/**
 * Deleting a tenant (DELETE /v1/tenants/{id}, spec section 7). At once: `deleted_at` is set, so the
 * tenant leaves every list, its users' sessions end (the session check reads no user of a deleted
 * tenant, auth/session.ts) and nobody of it signs in. Then a background job removes its data in
 * slices: every table that belongs to tenants, a bounded batch per statement, its community and users
 * last. The tenant row stays as a tombstone (name, plan, dates: the dashboard's churn). Durable: the job
 * is retried, and at every start the deleted tenants that still have a community or users are queued
 * again (one waiting job per tenant), so a killed process resumes where the rows left off.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/index';
import { tenants } from '../db/schema';
import type { JobRunner } from '../jobs';
import { badRequest, conflict, notFound } from '../errors';
import { isUuid } from '../lib/db-helpers';
import { queryRows, textOf } from '../lib/raw-sql';
import { sessionChanged } from '../auth';
import { platformTenantId } from './platform';
import { TENANT_NOT_FOUND } from './update';

export const TENANT_DELETE_QUEUE = 'tenants.delete';
/** Rows removed per statement. */
export const DELETE_BATCH = 2000;

export const PLATFORM_NOT_DELETABLE = 'The platform tenant cannot be deleted.';
export const OWN_TENANT_NOT_DELETABLE = 'You cannot delete your own tenant.';

/**
 * Rows of the biggest tables reached through the tenant's campaigns (their indexes start with the
 * campaign), so a slice never scans another tenant's events.
 */
const VIA_CAMPAIGNS = new Set(['campaign_events', 'campaign_recipients']);
/** Emptied last: while they hold rows the deletion is unfinished (resumed at start). */
const LAST = ['communities', 'users'];

export async function markTenantDeleted(
  db: Database,
  jobs: JobRunner,
  id: string,
  callerTenantId: string | null,
  now: Date,
): Promise<void> {
  if (!isUuid(id)) throw notFound(TENANT_NOT_FOUND);
  if (id === (await platformTenantId(db))) throw badRequest(PLATFORM_NOT_DELETABLE);
  if (id === callerTenantId) throw conflict(OWN_TENANT_NOT_DELETABLE);
  const [row] = await db
    .update(tenants)
    .set({ deletedAt: now })
    .where(and(eq(tenants.id, id), isNull(tenants.deletedAt)))
    .returning({ id: tenants.id });
  if (!row) throw notFound(TENANT_NOT_FOUND);
  sessionChanged(db, `tenant:${id}`);
  await jobs.send(TENANT_DELETE_QUEUE, { tenantId: id }, { singletonKey: id });
}

/** The tables whose rows belong to a tenant (foreign key to tenants, on delete cascade), in deletion order. */
async function tenantTables(db: Database): Promise<{ table: string; column: string }[]> {
  const rows = await queryRows(
    db,
    sql`select c.conrelid::regclass::text as "table", a.attname as "column"
          from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
         where c.confrelid = 'tenants'::regclass and c.contype = 'f' and c.confdeltype = 'c'`,
  );
  const tables = rows.map((r) => ({ table: String(textOf(r, 'table')), column: String(textOf(r, 'column')) }));
  const rank = (t: string) => (VIA_CAMPAIGNS.has(t) ? 0 : t === 'contacts' ? 1 : LAST.indexOf(t) + 3 || 2);
  return tables.sort((a, b) => rank(a.table) - rank(b.table) || a.table.localeCompare(b.table));
}

/**
 * Removes one slice (at most {@link DELETE_BATCH} rows of one table) of a deleted tenant's data; false
 * when nothing is left. The tenant row stays, marked deleted: the dashboard counts it as churn.
 * A table another one still points at (a foreign key without cascade) waits for a later slice.
 */
export async function deleteTenantSlice(db: Database, tenantId: string): Promise<boolean> {
  let blocked: unknown = null;
  for (const { table, column } of await tenantTables(db)) {
    const t = sql.identifier(table);
    const owned = VIA_CAMPAIGNS.has(table)
      ? sql`campaign_id in (select id from campaigns where tenant_id = ${tenantId}::uuid)`
      : sql`${sql.identifier(column)} = ${tenantId}::uuid`;
    try {
      const removed = await queryRows(
        db,
        sql`delete from ${t} where ctid = any(array(select ctid from ${t} where ${owned} limit ${DELETE_BATCH})) returning 1`,
      );
      if (removed.length > 0) return true;
    } catch (error) {
      blocked ??= error;
    }
  }
  if (blocked) throw blocked instanceof Error ? blocked : new Error(String(blocked));
  return false;
}

/** Deleted tenants whose data is not all removed yet (their community or users are still there). */
async function unfinished(db: Database): Promise<string[]> {
  const rows = await queryRows(
    db,
    sql`select t.id::text as id from tenants t where t.deleted_at is not null
          and (exists (select 1 from users u where u.tenant_id = t.id)
               or exists (select 1 from communities c where c.tenant_id = t.id))`,
  );
  return rows.map((r) => String(textOf(r, 'id')));
}

export function registerTenantDeleteJob(db: Database, jobs: JobRunner): void {
  jobs.work<{ tenantId: string }>(
    TENANT_DELETE_QUEUE,
    async (job) => {
      // Each slice is its own statement: a stop between two loses nothing, and the job runs again.
      while (await deleteTenantSlice(db, job.data.tenantId)) {
        if (job.signal.aborted) throw new Error('tenant deletion stopped; it resumes on the next run');
      }
    },
    { policy: 'stately', retryLimit: 10, retryDelay: 10, retryBackoff: true, batchSize: 1 },
  );
  jobs.onStart(async () => {
    for (const id of await unfinished(db)) await jobs.send(TENANT_DELETE_QUEUE, { tenantId: id }, { singletonKey: id });
  });
}
