/**
 * The applets table (spec sections 2 and 7): platform admins register add-on screens as federated remotes.
 * Every save checks the slug (unique), the plans (in the catalogue) and reads the manifest: `module` must be
 * one it exposes.
 */
import { and, asc, count, desc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  APPLET_MESSAGES,
  type Applet,
  type AppletListQuery,
  type AppletManifest,
  type AppletPage,
  type AppletUpdateBody,
} from '../contracts';
import type { Database } from '../db/index';
import { applets, plans, tenants } from '../db/schema';
import { badRequest, notFound, INVALID_INPUT, type FieldErrors } from '../errors';
import { isUuid, uniqueViolation } from '../lib/db-helpers';
import { likePattern, paginate, pageWindow } from '../lib/pagination';
import { sessionChanged } from '../auth';
import { fetchManifest, ManifestError, type ManifestFetchOptions } from './manifest-fetch';

type AppletRow = typeof applets.$inferSelect;

export interface AppletContext {
  db: Database;
  manifests: ManifestFetchOptions;
}

function toApplet(row: AppletRow): Applet {
  return {
    _id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    icon: row.icon,
    manifest_url: row.manifestUrl,
    module: row.module,
    plan_ids: row.planIds,
    enabled: row.enabled,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const SORT: Record<AppletListQuery['sortField'], SQL> = {
  created_at: sql`${applets.createdAt}`,
  updated_at: sql`${applets.updatedAt}`,
  name: sql`lower(${applets.name})`,
  slug: sql`${applets.slug}`,
  enabled: sql`${applets.enabled}`,
};

/** GET /v1/applets: search on name, slug and description; whitelisted sort; paged (perPage up to 1000). */
export async function listApplets(db: Database, q: AppletListQuery): Promise<AppletPage> {
  const search = q.searchString.trim();
  const pattern = likePattern(search);
  const where = search
    ? or(ilike(applets.name, pattern), ilike(applets.slug, pattern), ilike(applets.description, pattern))
    : undefined;
  const [total] = await db.select({ n: count() }).from(applets).where(where);
  const direction = q.sortOrder === 'asc' ? asc : desc;
  const { offset, limit } = pageWindow(q.page, q.perPage);
  const rows = await db
    .select()
    .from(applets)
    .where(where)
    .orderBy(direction(SORT[q.sortField]), direction(applets.id))
    .limit(limit)
    .offset(offset);
  return { records: rows.map(toApplet), pagination: paginate(q.page, q.perPage, total?.n ?? 0) };
}

async function findRow(db: Database, id: string): Promise<AppletRow> {
  const [row] = isUuid(id) ? await db.select().from(applets).where(eq(applets.id, id)) : [];
  if (!row) throw notFound(APPLET_MESSAGES.notFound);
  return row;
}

export async function getApplet(db: Database, id: string): Promise<Applet> {
  return toApplet(await findRow(db, id));
}

/** POST /v1/applets/inspect: the manifest's name and exposes, or a 400 on manifest_url with the reason. */
export async function inspectManifest(ctx: AppletContext, manifestUrl: string): Promise<AppletManifest> {
  try {
    return await fetchManifest(manifestUrl, ctx.manifests);
  } catch (error) {
    if (error instanceof ManifestError) throw badRequest(INVALID_INPUT, { manifest_url: [error.message] });
    throw error;
  }
}

/** The applet a save would store: every field but the id and dates. */
export type AppletFields = Omit<Applet, '_id' | 'created_at' | 'updated_at'>;

/**
 * Field errors of a complete applet: slug taken, unknown plans, a manifest that cannot be read or lacks the
 * module. `current`: the stored applet when editing.
 */
async function checkApplet(
  ctx: AppletContext,
  fields: AppletFields,
  current: AppletFields | null,
  selfId: string | null,
): Promise<void> {
  const errors: FieldErrors = {};
  const [taken] = await ctx.db
    .select({ id: applets.id })
    .from(applets)
    .where(selfId ? and(eq(applets.slug, fields.slug), ne(applets.id, selfId)) : eq(applets.slug, fields.slug));
  if (taken) errors.slug = [APPLET_MESSAGES.slugTaken];
  const wanted = planIds(fields.plan_ids);
  const valid = wanted.filter(isUuid);
  const known = valid.length ? await ctx.db.select({ id: plans.id }).from(plans).where(inArray(plans.id, valid)) : [];
  if (known.length !== wanted.length) errors.plan_ids = [APPLET_MESSAGES.planUnknown];
  // The manifest is read when the address or the module is new: an edit that keeps both (e.g. disabling an
  // applet whose remote is down) does not depend on the remote answering.
  const unchanged = current && current.manifest_url === fields.manifest_url && current.module === fields.module;
  if (!unchanged) await checkModule(ctx, fields, errors);
  if (Object.keys(errors).length > 0) throw badRequest(INVALID_INPUT, errors);
}

/** The module must be one the manifest at the address exposes (a manifest that cannot be read: manifest_url). */
async function checkModule(ctx: AppletContext, fields: AppletFields, errors: FieldErrors): Promise<void> {
  try {
    const manifest = await fetchManifest(fields.manifest_url, ctx.manifests);
    if (!manifest.exposes.includes(fields.module)) errors.module = [APPLET_MESSAGES.moduleNotExposed];
  } catch (error) {
    if (!(error instanceof ManifestError)) throw error;
    errors.manifest_url = [error.message];
  }
}

/** Plan ids as stored: lowercase, each once. */
function planIds(ids: readonly string[]): string[] {
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}

function columns(fields: AppletFields) {
  return {
    name: fields.name,
    slug: fields.slug,
    description: fields.description,
    icon: fields.icon || null,
    manifestUrl: fields.manifest_url,
    module: fields.module,
    planIds: planIds(fields.plan_ids),
    enabled: fields.enabled,
  };
}

/** A unique violation on the slug (two saves at once): the same field error as the check. */
function slugRace(error: unknown): never {
  if (uniqueViolation(error) === 'applets_slug_idx') {
    throw badRequest(INVALID_INPUT, { slug: [APPLET_MESSAGES.slugTaken] });
  }
  throw error;
}

export async function createApplet(ctx: AppletContext, body: AppletFields): Promise<Applet> {
  const fields: AppletFields = { ...body, icon: body.icon || null };
  await checkApplet(ctx, fields, null, null);
  const [row] = await ctx.db.insert(applets).values(columns(fields)).returning().catch(slugRace);
  if (!row) throw new Error('applet was not stored');
  return toApplet(row);
}

/** PATCH /v1/applets/{id}: the body's `_id` is the path's (spec section 7); the fields sent replace the stored. */
export async function updateApplet(ctx: AppletContext, id: string, body: AppletUpdateBody): Promise<Applet> {
  if (body._id.toLowerCase() !== id.toLowerCase())
    throw badRequest(INVALID_INPUT, { _id: [APPLET_MESSAGES.idMismatch] });
  const current = toApplet(await findRow(ctx.db, id));
  const { _id, ...changes } = body;
  const fields: AppletFields = {
    name: changes.name ?? current.name,
    slug: changes.slug ?? current.slug,
    description: changes.description ?? current.description,
    icon: changes.icon === undefined ? current.icon : changes.icon || null,
    manifest_url: changes.manifest_url ?? current.manifest_url,
    module: changes.module ?? current.module,
    plan_ids: changes.plan_ids ?? current.plan_ids,
    enabled: changes.enabled ?? current.enabled,
  };
  await checkApplet(ctx, fields, current, current._id);
  const [row] = await ctx.db
    .update(applets)
    .set({ ...columns(fields), updatedAt: new Date() })
    .where(eq(applets.id, current._id))
    .returning()
    .catch(slugRace);
  if (!row) throw notFound(APPLET_MESSAGES.notFound);
  return toApplet(row);
}

/** DELETE /v1/applets/{id}: the applet goes, and with it its place in every tenant's enabled applets. */
export async function deleteApplet(db: Database, id: string): Promise<void> {
  if (!isUuid(id)) throw notFound(APPLET_MESSAGES.notFound);
  const appletId = id.toLowerCase();
  const touched = await db.transaction(async (tx) => {
    const gone = await tx.delete(applets).where(eq(applets.id, appletId)).returning({ id: applets.id });
    if (gone.length === 0) throw notFound(APPLET_MESSAGES.notFound);
    return tx
      .update(tenants)
      .set({ enabledApplets: sql`array_remove(${tenants.enabledApplets}, ${appletId}::uuid)` })
      .where(sql`${appletId}::uuid = any(${tenants.enabledApplets})`)
      .returning({ id: tenants.id });
  });
  for (const tenant of touched) sessionChanged(db, `tenant:${tenant.id}`);
}
