import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { App } from '../contracts';
import type { Database } from '../db/index';
import { applets, tenants } from '../db/schema';

/**
 * The applets a tenant may open (the Apps rule): enabled applets whose plans include the tenant's plan,
 * or that a platform admin enabled for this tenant (its settings' enabled applets). Disabled applets are
 * hidden from every tenant, whatever its plan or settings. By name, then slug.
 */
export async function appsOfTenant(db: Database, tenantId: string): Promise<App[]> {
  const rows = await db
    .select({
      id: applets.id,
      name: applets.name,
      slug: applets.slug,
      description: applets.description,
      icon: applets.icon,
      manifestUrl: applets.manifestUrl,
      module: applets.module,
    })
    .from(applets)
    .innerJoin(tenants, and(eq(tenants.id, tenantId), isNull(tenants.deletedAt)))
    .where(
      and(
        eq(applets.enabled, true),
        sql`(${tenants.planId} = any(${applets.planIds}) or ${applets.id} = any(${tenants.enabledApplets}))`,
      ),
    )
    .orderBy(asc(applets.name), asc(applets.slug));
  return rows.map((r) => ({
    _id: r.id,
    name: r.name,
    slug: r.slug,
    description: r.description,
    icon: r.icon,
    manifest_url: r.manifestUrl,
    module: r.module,
  }));
}
