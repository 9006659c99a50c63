/**
 * Deleting a tenant (DELETE /v1/tenants/{id}, spec section 7). At once: `deleted_at` is set, so the
 * tenant leaves every list, its users' sessions end (the session check reads no user of a deleted
 * tenant, auth/session.ts) and nobody of it signs in. Then a background job removes its data in
 * slices — the big tables a bounded batch per statement, then the tenant row, whose foreign keys
 * remove the rest. Durable: the job is retried, and at every start the tenants still marked are
 * queued again (one waiting job per tenant), so a killed process resumes where the rows left off.
 */
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/index';
import { tenants } from '../db/schema';
import type { JobRunner } from '../jobs';
import { badRequest, conflict, notFound } from '../errors';
import { isUuid } from '../lib/db-helpers';
import { queryRows } from '../lib/raw-sql';
import { sessionChanged } from '../auth/session-cache';
import { platformTenantId } from './platform';
import { TENANT_NOT_FOUND } from './update';

export const TENANT_DELETE_QUEUE = 'tenants.delete';
/** Rows removed per statement. */
export const DELETE_BATCH = 2000;

export const PLATFORM_NOT_DELETABLE = 'The platform tenant cannot be deleted.';
export const OWN_TENANT_NOT_DELETABLE = 'You cannot delete your own tenant.';

/** Tables emptied a batch at a time before the tenant row goes (the rest are small and cascade). */
const SLICED = ['campaign_events', 'campaign_recipients', 'contacts'] as const;

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

/** Removes one slice of a deleted tenant's data; false when the tenant row itself is gone. */
export async function deleteTenantSlice(db: Database, tenantId: string): Promise<boolean> {
  for (const table of SLICED) {
    const t = sql.identifier(table);
    const removed = await queryRows(
      db,
      sql`delete from ${t} where id in (select id from ${t} where tenant_id = ${tenantId} limit ${DELETE_BATCH}) returning 1`,
    );
    if (removed.length > 0) return true;
  }
  // Only the small tables are left: the tenant row takes them with it (foreign keys cascade).
  await db.delete(tenants).where(and(eq(tenants.id, tenantId), isNotNull(tenants.deletedAt)));
  return false;
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
    const left = await db.select({ id: tenants.id }).from(tenants).where(isNotNull(tenants.deletedAt));
    for (const { id } of left) await jobs.send(TENANT_DELETE_QUEUE, { tenantId: id }, { singletonKey: id });
  });
}
