/** The tenant's community (one per tenant): its page texts, alias, images and sign-up list. */
import { randomUUID } from 'node:crypto';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Community, CommunityInput } from '../../contracts';
import type { Database } from '../../db/index';
import { communities, lists, tenants, type CommunityRow } from '../../db/schema';
import { badRequest, notFound, type FieldErrors, INVALID_INPUT } from '../../errors';
import { isUuid, uniqueViolation } from '../../lib/db-helpers';
import {
  cleanWhatYouGet,
  COMMUNITY_MESSAGES,
  communityUrl,
  slugCandidate,
  slugFromName,
  slugProblem,
} from '../onboarding-rules';
import { cachedCommunityRow, communityChanged, communityRowInMemory } from './community-cache';
import { isStoredImageOf, type Storage } from '../storage/storage';

/** Name of the list sign-ups from the community page land in (made unique within the tenant). */
export const COMMUNITY_LIST_NAME = 'Community sign-ups';

export interface CommunityContext {
  db: Database;
  storage: Storage;
  publicUrl: string;
}

export function toCommunity(row: CommunityRow, publicUrl: string): Community {
  return {
    _id: row.id,
    title: row.title,
    description: row.description,
    short_description: row.shortDescription,
    what_you_get: row.whatYouGet,
    slug: row.slug,
    alias: row.slug,
    logo: row.logo,
    background: row.background,
    priority: row.priority,
    show: row.show,
    carousel_priority: row.carouselPriority,
    show_on_carousel: row.showOnCarousel,
    public: row.public,
    url: communityUrl(publicUrl, row.slug),
    list_id: row.listId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The tenant's community row: kept per process and dropped on every write (community-cache.ts). */
export function communityRowOf(db: Database, tenantId: string): Promise<CommunityRow | null> {
  return cachedCommunityRow(db, tenantId);
}

/**
 * GET /v1/communities/my-community: the caller tenant's row, 404 'No community yet.' before the first
 * save. From memory without a promise when the row is cached (community-cache.ts).
 */
export function myCommunityRow(ctx: CommunityContext, tenantId: string): CommunityRow | Promise<CommunityRow> {
  const cached = communityRowInMemory(ctx.db, tenantId);
  if (cached !== undefined) return cached;
  return communityRowOf(ctx.db, tenantId).then((row) => {
    if (!row) throw notFound(COMMUNITY_MESSAGES.none);
    return row;
  });
}

async function tenantName(db: Database, tenantId: string): Promise<string> {
  const [row] = await db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, tenantId));
  return row?.name ?? '';
}

async function slugTaken(db: Database, slug: string, exceptId: string | null): Promise<boolean> {
  const [row] = await db
    .select({ id: communities.id })
    .from(communities)
    .where(and(sql`lower(${communities.slug}) = lower(${slug})`, exceptId ? ne(communities.id, exceptId) : undefined))
    .limit(1);
  return row !== undefined;
}

/**
 * Field errors of an input: the alias (when given, or always on create) and each new image address,
 * which must be an upload of this tenant that this storage issued and stored.
 */
async function inputErrors(
  ctx: CommunityContext,
  tenantId: string,
  input: Partial<CommunityInput>,
  current: CommunityRow | null,
): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  if (!current || input.slug !== undefined) {
    const problem = slugProblem(input.slug);
    if (problem) errors.slug = [problem];
    else if (input.slug && (await slugTaken(ctx.db, input.slug, current?.id ?? null))) {
      errors.slug = [COMMUNITY_MESSAGES.slugTaken];
    }
  }
  for (const field of ['logo', 'background'] as const) {
    const address = input[field];
    if (address === undefined || address === null || address === current?.[field]) continue;
    if (!(await isStoredImageOf(ctx.storage, { tenantId }, address))) errors[field] = [COMMUNITY_MESSAGES.uploadAgain];
  }
  return errors;
}

/** Unique violations of a community write, as the client's errors. */
function writeConflict(error: unknown): Error | null {
  const index = uniqueViolation(error);
  if (index === 'communities_slug_idx') return badRequest(INVALID_INPUT, { slug: [COMMUNITY_MESSAGES.slugTaken] });
  if (index === 'communities_tenant_idx') return badRequest(COMMUNITY_MESSAGES.exists);
  return null;
}

/** A list name for the community's sign-ups that no list of the tenant has yet. */
async function freeListName(db: Database, tenantId: string): Promise<string> {
  const taken = new Set(
    (
      await db
        .select({ name: sql<string>`lower(${lists.name})` })
        .from(lists)
        .where(and(eq(lists.tenantId, tenantId), sql`lower(${lists.name}) like lower(${`${COMMUNITY_LIST_NAME}%`})`))
    ).map((r) => r.name),
  );
  for (let n = 1; ; n++) {
    const name = n === 1 ? COMMUNITY_LIST_NAME : `${COMMUNITY_LIST_NAME} ${n}`;
    if (!taken.has(name.toLowerCase())) return name;
  }
}

/** The column values of an input (fields left out stay as they are). */
function columnsOf(input: Partial<CommunityInput>) {
  return {
    ...(input.description !== undefined && { description: input.description }),
    ...(input.short_description !== undefined && { shortDescription: input.short_description }),
    ...(input.what_you_get !== undefined && { whatYouGet: cleanWhatYouGet(input.what_you_get) }),
    ...(input.slug !== undefined && { slug: input.slug }),
    ...(input.logo !== undefined && { logo: input.logo }),
    ...(input.background !== undefined && { background: input.background }),
    ...(input.priority !== undefined && { priority: input.priority }),
    ...(input.show !== undefined && { show: input.show }),
    ...(input.carousel_priority !== undefined && { carouselPriority: input.carousel_priority }),
    ...(input.show_on_carousel !== undefined && { showOnCarousel: input.show_on_carousel }),
    ...(input.public !== undefined && { public: input.public }),
  };
}

/**
 * POST /v1/communities: the tenant's first and only community, with a list of its own for the sign-ups
 * from its page (tied to it, so never offered as a widget target). The title defaults to the tenant's name.
 */
export async function createCommunity(
  ctx: CommunityContext,
  tenantId: string,
  input: CommunityInput,
): Promise<Community> {
  if (await communityRowOf(ctx.db, tenantId)) throw badRequest(COMMUNITY_MESSAGES.exists);
  const errors = await inputErrors(ctx, tenantId, input, null);
  if (Object.keys(errors).length > 0) throw badRequest(INVALID_INPUT, errors);
  const slug = input.slug ?? '';
  const title = input.title || (await tenantName(ctx.db, tenantId));
  const listName = await freeListName(ctx.db, tenantId);
  try {
    const row = await ctx.db.transaction(async (tx) => {
      const id = randomUUID();
      await tx.insert(communities).values({ ...columnsOf(input), id, tenantId, title, slug });
      const [list] = await tx
        .insert(lists)
        .values({ tenantId, name: listName, autoimport: false, communityId: id })
        .returning({ id: lists.id });
      if (!list) throw new Error('community list was not stored');
      const [stored] = await tx.update(communities).set({ listId: list.id }).where(eq(communities.id, id)).returning();
      if (!stored) throw new Error('community was not stored');
      return stored;
    });
    communityChanged(ctx.db, tenantId);
    return toCommunity(row, ctx.publicUrl);
  } catch (error) {
    throw writeConflict(error) ?? error;
  }
}

/** The first alias free for a base derived from a name (`base`, `base-2`, …), read in one query. */
async function freeSlug(db: Database, base: string): Promise<string> {
  const taken = new Set(
    (
      await db
        .select({ slug: sql<string>`lower(${communities.slug})` })
        .from(communities)
        .where(sql`lower(${communities.slug}) = ${base} or lower(${communities.slug}) like ${`${base}-%`}`)
    ).map((r) => r.slug),
  );
  for (let n = 1; ; n++) {
    const slug = slugCandidate(base, n);
    if (!taken.has(slug)) return slug;
  }
}

/**
 * The community every tenant gets when it is created (seed, checkout, platform admins), inside the
 * caller's transaction: titled with the tenant's name, an alias derived from it and free among all
 * communities, not enabled (not public, not listed), with its own sign-up list. Another tenant taking
 * the same alias at the same moment makes the insert fail on the unique index: it is retried with the
 * next free alias inside a savepoint, so the caller's transaction survives.
 */
export async function createTenantCommunity(db: Database, tenantId: string, tenantName: string): Promise<string> {
  const base = slugFromName(tenantName);
  const listName = await freeListName(db, tenantId);
  for (let attempt = 0; ; attempt++) {
    const slug = await freeSlug(db, base);
    try {
      return await db.transaction(async (sp) => {
        const id = randomUUID();
        await sp.insert(communities).values({ id, tenantId, title: tenantName, slug });
        const [list] = await sp
          .insert(lists)
          .values({ tenantId, name: listName, autoimport: false, communityId: id })
          .returning({ id: lists.id });
        if (!list) throw new Error('community list was not stored');
        await sp.update(communities).set({ listId: list.id }).where(eq(communities.id, id));
        return id;
      });
    } catch (error) {
      if (attempt < 5 && uniqueViolation(error) === 'communities_slug_idx') continue;
      throw error;
    }
  }
}

/** PATCH /v1/communities/{id}: only the given fields; another tenant's id is 404. */
export async function updateCommunity(
  ctx: CommunityContext,
  tenantId: string,
  id: string,
  input: Partial<CommunityInput>,
): Promise<Community> {
  const [current] = isUuid(id)
    ? await ctx.db
        .select()
        .from(communities)
        .where(and(eq(communities.id, id), eq(communities.tenantId, tenantId)))
    : [];
  if (!current) throw notFound(COMMUNITY_MESSAGES.notFound);
  const errors = await inputErrors(ctx, tenantId, input, current);
  if (Object.keys(errors).length > 0) throw badRequest(INVALID_INPUT, errors);
  const title = input.title === undefined ? {} : { title: input.title || (await tenantName(ctx.db, tenantId)) };
  try {
    const [row] = await ctx.db
      .update(communities)
      .set({ ...columnsOf(input), ...title, updatedAt: sql`now()` })
      .where(and(eq(communities.id, current.id), eq(communities.tenantId, tenantId)))
      .returning();
    if (!row) throw notFound(COMMUNITY_MESSAGES.notFound);
    communityChanged(ctx.db, tenantId);
    return toCommunity(row, ctx.publicUrl);
  } catch (error) {
    throw writeConflict(error) ?? error;
  }
}
