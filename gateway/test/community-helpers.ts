// Test helpers for communities and their images: take a tenant's community (and its sign-up list)
// away, as for data from before every tenant got its community at creation; store an image.
import assert from 'node:assert/strict';
import { eq, inArray } from 'drizzle-orm';
import type { PresignResponse } from '../src/contracts';
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

/** A stored image address of the caller's (their tenant's, or theirs without a tenant): presign, then PUT a PNG. */
export async function storeImage(gw: TestGateway, token: string): Promise<string> {
  const p = await gw.post<PresignResponse>('/v1/files/s3-presigned-url', { type: 'image/png' }, token);
  assert.equal(p.status, 200, p.text);
  const u = new URL(p.body.url);
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  const r = await fetch(`${gw.url}${u.pathname}${u.search}`, {
    method: 'PUT',
    headers: { 'content-type': 'image/png' },
    body: png,
  });
  assert.equal(r.status, 200, await r.text());
  return p.body.fileUrl;
}
