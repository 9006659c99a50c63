/** Sign-up widgets of one tenant: where they are embedded and which list they feed. */
import { and, asc, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Widget, WidgetDetail, WidgetInput, WidgetListQuery, WidgetPage } from '../../contracts';
import type { Database } from '../../db/index';
import { communities, lists, widgets, type WidgetRow } from '../../db/schema';
import { badRequest, notFound, type FieldErrors, INVALID_INPUT } from '../../errors';
import { likePattern, paginate, pageWindow } from '../../lib/pagination';
import { isUuid } from '../../lib/db-helpers';
import { WIDGET_MESSAGES, websiteUrlProblem } from '../onboarding-rules';

export interface WidgetContext {
  db: Database;
  /** Where widget snippets load the SDK from. */
  sdkBaseUrl: string;
}

function toWidget(row: WidgetRow, targetName: string): Widget {
  return {
    _id: row.id,
    type: row.type,
    target_id: row.targetId,
    target_name: targetName,
    url: row.url,
    count: row.signups,
    created_at: row.createdAt.toISOString(),
  };
}

const SORT: Record<WidgetListQuery['sortField'], SQL> = {
  created_at: sql`${widgets.createdAt}`,
  type: sql`${widgets.type}`,
  url: sql`lower(${widgets.url})`,
  count: sql`${widgets.signups}`,
};

/** GET /v1/widgets: search on the URL and the type, whitelisted sort, paged like the lists. */
export async function listWidgets(db: Database, tenantId: string, q: WidgetListQuery): Promise<WidgetPage> {
  const conditions: (SQL | undefined)[] = [eq(widgets.tenantId, tenantId)];
  const search = q.searchString.trim();
  if (search) {
    const pattern = likePattern(search);
    conditions.push(or(ilike(widgets.url, pattern), ilike(widgets.type, pattern)));
  }
  const where = and(...conditions);
  const [total] = await db.select({ n: count() }).from(widgets).where(where);
  const direction = q.sortOrder === 'asc' ? asc : desc;
  const { offset, limit } = pageWindow(q.page, q.perPage);
  const rows = await db
    .select({ widget: widgets, targetName: lists.name })
    .from(widgets)
    .innerJoin(lists, eq(lists.id, widgets.targetId))
    .where(where)
    .orderBy(direction(SORT[q.sortField]), direction(widgets.id))
    .limit(limit)
    .offset(offset);
  return {
    records: rows.map((r) => toWidget(r.widget, r.targetName)),
    pagination: paginate(q.page, q.perPage, total?.n ?? 0),
  };
}

async function communityOf(db: Database, tenantId: string): Promise<{ id: string; slug: string } | null> {
  const [row] = await db
    .select({ id: communities.id, slug: communities.slug })
    .from(communities)
    .where(eq(communities.tenantId, tenantId));
  return row ?? null;
}

function detail(
  ctx: WidgetContext,
  row: WidgetRow,
  targetName: string,
  community: { id: string; slug: string } | null,
): WidgetDetail {
  return {
    ...toWidget(row, targetName),
    sdk_url: ctx.sdkBaseUrl,
    community_id: community?.id ?? '',
    community_alias: community?.slug ?? '',
  };
}

/** The problem with a target list: it must be the tenant's, not auto-imported and not a community's own. */
async function targetProblem(db: Database, tenantId: string, targetId: string): Promise<string | null> {
  const [list] = isUuid(targetId)
    ? await db
        .select({ autoimport: lists.autoimport, communityId: lists.communityId })
        .from(lists)
        .where(and(eq(lists.id, targetId), eq(lists.tenantId, tenantId)))
    : [];
  if (!list) return WIDGET_MESSAGES.targetUnknown;
  if (list.autoimport) return WIDGET_MESSAGES.targetAutoimport;
  return list.communityId ? WIDGET_MESSAGES.targetCommunity : null;
}

/** Field errors of a widget's target list and website URL (each checked only when given). */
async function checkWidgetInput(db: Database, tenantId: string, input: Partial<WidgetInput>): Promise<void> {
  const errors: FieldErrors = {};
  const target = input.target_id === undefined ? null : await targetProblem(db, tenantId, input.target_id);
  if (target) errors.target_id = [target];
  const url = input.url === undefined ? null : websiteUrlProblem(input.url);
  if (url) errors.url = [url];
  if (Object.keys(errors).length > 0) throw badRequest(INVALID_INPUT, errors);
}

/** POST /v1/widgets: needs the tenant's community (the snippet names it). */
export async function createWidget(ctx: WidgetContext, tenantId: string, input: WidgetInput): Promise<WidgetDetail> {
  const community = await communityOf(ctx.db, tenantId);
  if (!community) throw badRequest(WIDGET_MESSAGES.noCommunity);
  await checkWidgetInput(ctx.db, tenantId, input);
  const [row] = await ctx.db
    .insert(widgets)
    .values({ tenantId, type: input.type, targetId: input.target_id.toLowerCase(), url: input.url })
    .returning();
  if (!row) throw new Error('widget was not stored');
  return getWidget(ctx, tenantId, row.id);
}

function tenantWidget(id: string, tenantId: string): SQL | undefined {
  return and(eq(widgets.id, id), eq(widgets.tenantId, tenantId));
}

export async function getWidget(ctx: WidgetContext, tenantId: string, id: string): Promise<WidgetDetail> {
  const [found] = isUuid(id)
    ? await ctx.db
        .select({ widget: widgets, targetName: lists.name })
        .from(widgets)
        .innerJoin(lists, eq(lists.id, widgets.targetId))
        .where(tenantWidget(id, tenantId))
    : [];
  if (!found) throw notFound(WIDGET_MESSAGES.notFound);
  return detail(ctx, found.widget, found.targetName, await communityOf(ctx.db, tenantId));
}

/** PATCH /v1/widgets/{id}: type, target list and website URL; the sign-ups count stays. */
export async function updateWidget(
  ctx: WidgetContext,
  tenantId: string,
  id: string,
  input: Partial<WidgetInput>,
): Promise<WidgetDetail> {
  if (!isUuid(id)) throw notFound(WIDGET_MESSAGES.notFound);
  // An empty PATCH changes nothing: the widget as it is (404 when it is not the caller's).
  if (input.type === undefined && input.target_id === undefined && input.url === undefined) {
    return getWidget(ctx, tenantId, id);
  }
  await checkWidgetInput(ctx.db, tenantId, input);
  const updated = await ctx.db
    .update(widgets)
    .set({
      ...(input.type !== undefined && { type: input.type }),
      ...(input.target_id !== undefined && { targetId: input.target_id.toLowerCase() }),
      ...(input.url !== undefined && { url: input.url }),
    })
    .where(tenantWidget(id, tenantId))
    .returning({ id: widgets.id });
  if (updated.length === 0) throw notFound(WIDGET_MESSAGES.notFound);
  return getWidget(ctx, tenantId, id);
}

export async function deleteWidget(db: Database, tenantId: string, id: string): Promise<void> {
  const deleted = isUuid(id)
    ? await db.delete(widgets).where(tenantWidget(id, tenantId)).returning({ id: widgets.id })
    : [];
  if (deleted.length === 0) throw notFound(WIDGET_MESSAGES.notFound);
}
