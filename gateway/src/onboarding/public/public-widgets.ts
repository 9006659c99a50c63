/**
 * Widgets as the public side sees them: the widget with its tenant's community and its target list,
 * and the rule that a widget answers only the website it is installed on.
 */
import { and, eq } from 'drizzle-orm';
import type { PublicWidget, WidgetType } from '../../contracts';
import type { Database } from '../../db/index';
import { communities, lists, tenants, widgets } from '../../db/schema';
import { isUuid } from '../../lib/db-helpers';
import { forbidden, notFound } from '../../errors';

export const WIDGET_NOT_FOUND = 'This widget does not exist.';
export const WRONG_SITE = 'This widget is not installed on this site.';

export interface LoadedWidget {
  id: string;
  tenantId: string;
  type: WidgetType;
  url: string;
  /** The target list (checked to belong to the widget's tenant). */
  listId: string;
  community: { title: string; alias: string; logo: string | null };
}

/** The origin (scheme://host[:port]) of a widget's website URL; a URL without scheme is taken as https. */
export function widgetOrigin(url: string): string | null {
  const trimmed = url.trim();
  if (!trimmed) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  try {
    const parsed = new URL(withScheme);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
    return parsed.origin;
  } catch {
    return null;
  }
}

/** The host of the widget's website (for the wallet sign-in message); '' when the URL is unusable. */
export function widgetHost(url: string): string {
  const origin = widgetOrigin(url);
  return origin ? new URL(origin).host : '';
}

/**
 * Whether a request may use the widget: no Origin header (not a browser, or a same-origin GET) is
 * allowed, otherwise the Origin must be the widget website's origin exactly.
 */
export function originAllowed(originHeader: string | undefined, widgetUrl: string): boolean {
  if (originHeader === undefined) return true;
  const expected = widgetOrigin(widgetUrl);
  return expected !== null && originHeader === expected;
}

/** The widget with its community (the tenant's name when the community page was never saved). */
export async function findWidget(db: Database, id: string): Promise<LoadedWidget | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({
      id: widgets.id,
      tenantId: widgets.tenantId,
      type: widgets.type,
      url: widgets.url,
      listId: lists.id,
      tenantName: tenants.name,
      title: communities.title,
      slug: communities.slug,
      logo: communities.logo,
    })
    .from(widgets)
    .innerJoin(lists, and(eq(lists.id, widgets.targetId), eq(lists.tenantId, widgets.tenantId)))
    .innerJoin(tenants, eq(tenants.id, widgets.tenantId))
    .leftJoin(communities, eq(communities.tenantId, widgets.tenantId))
    .where(eq(widgets.id, id))
    .limit(1);
  if (!row) return null;
  return {
    id: row.id,
    tenantId: row.tenantId,
    type: row.type,
    url: row.url,
    listId: row.listId,
    community: { title: row.title || row.tenantName, alias: row.slug ?? '', logo: row.logo ?? null },
  };
}

export async function requireWidget(db: Database, id: string): Promise<LoadedWidget> {
  const widget = await findWidget(db, id);
  if (!widget) throw notFound(WIDGET_NOT_FOUND);
  return widget;
}

export function checkOrigin(originHeader: string | undefined, widget: LoadedWidget): void {
  if (!originAllowed(originHeader, widget.url)) throw forbidden(WRONG_SITE);
}

export function toPublicWidget(w: LoadedWidget): PublicWidget {
  return { _id: w.id, type: w.type, community: w.community };
}
