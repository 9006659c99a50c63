// Test helpers for communities: take a tenant's community (and its sign-up list) away, as for data
// from before every tenant got its community at creation.
import { eq, inArray } from 'drizzle-orm';
import { communities, lists, tenants } from '../src/db/schema';
import type { TestGateway } from './helpers';

export async function removeCommunities(gw: TestGateway, tenantNames: string[]): Promise<void> {
  const db = gw.handle.db;
  const ids = (await db.select({ id: tenants.id }).from(tenants).where(inArray(tenants.name, tenantNames))).map(
    (t) => t.id,
  );
  if (ids.length !== tenantNames.length) throw new Error(`unknown tenants among ${tenantNames.join(', ')}`);
  for (const id of ids) {
    const [community] = await db.select().from(communities).where(eq(communities.tenantId, id));
    if (!community) continue;
    await db.delete(communities).where(eq(communities.id, community.id));
    if (community.listId) await db.delete(lists).where(eq(lists.id, community.listId));
  }
}
