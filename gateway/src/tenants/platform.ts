/**
 * The platform tenant ("Console Platform", docs/decisions.md "Choices where the spec is silent"): the tenant the
 * super admins belong to. Its audience holds the community owners, so its lists select tenants
 * (`listId` of the tenant list query); it can never be deleted.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/index';
import { intOf, queryRows, textOf } from '../lib/raw-sql';

/** The tenant of the first super admin, or null when there is none. */
export async function platformTenantId(db: Database): Promise<string | null> {
  const [row] = await queryRows(
    db,
    sql`select u.tenant_id::text as id from users u join tenants t on t.id = u.tenant_id
         where u.role = 'super_admin' and t.deleted_at is null
         order by u.created_at, u.id limit 1`,
  );
  return row ? textOf(row, 'id') : null;
}

/** The platform tenant's lists (id and name), at most 1000, by name. */
export async function platformLists(db: Database): Promise<{ id: string; name: string; members: number }[]> {
  const tenantId = await platformTenantId(db);
  if (!tenantId) return [];
  const rows = await queryRows(
    db,
    sql`select id::text as id, name, member_count as members from lists
         where tenant_id = ${tenantId} order by lower(name), id limit 1000`,
  );
  return rows.map((r) => ({
    id: String(textOf(r, 'id')),
    name: String(textOf(r, 'name')),
    members: intOf(r, 'members'),
  }));
}
