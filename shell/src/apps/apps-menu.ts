import type { App } from '@console/shared/contracts';
import type { MenuGroup, MenuSubject } from '../menu';

/** The sidebar group the tenant's applets show under (spec section 2's tenant sidebar, plus "Apps"). */
export const APPS_GROUP = 'Apps';

/** An applet's page in the console. */
export function appPath(slug: string): string {
  return `/apps/${encodeURIComponent(slug)}`;
}

/**
 * Who has applets: users of a tenant with the tenant sidebar (not platform staff, whose sidebar is the
 * super-admin one or none). Only they fetch GET /v1/apps; the server decides which applets they see.
 */
export function hasApps(user: Pick<MenuSubject, 'role' | 'tenant_id'>): boolean {
  return user.tenant_id !== null && user.role !== 'super_admin' && user.role !== 'global_admin';
}

/**
 * The sidebar with the tenant's applets: an "Apps" group (by the order the server listed them) before
 * the closing unlabelled group (Developer Docs); the sidebar unchanged when there are none. Every
 * applet is shown unlocked: the server only lists those the tenant's plan or settings include.
 */
export function withApps(groups: MenuGroup[] | null, apps: readonly App[]): MenuGroup[] | null {
  if (!groups || apps.length === 0) return groups;
  const group: MenuGroup = {
    label: APPS_GROUP,
    items: apps.map((a) => ({ label: a.name, to: appPath(a.slug), state: 'shown' })),
  };
  const last = groups[groups.length - 1];
  if (last && last.label === null && last.items.every((i) => i.external)) {
    return [...groups.slice(0, -1), group, last];
  }
  return [...groups, group];
}

/** The remote name an applet is registered under (a JavaScript identifier from its unique slug). */
export function appletRemoteName(slug: string): string {
  return `applet_${slug.replace(/[^A-Za-z0-9]/g, '_')}`;
}

/** The `loadRemote` id of an applet's module: `./Page` is `applet_<slug>/Page`. */
export function appletModuleId(app: Pick<App, 'slug' | 'module'>): string {
  return `${appletRemoteName(app.slug)}/${app.module.replace(/^\.\//, '')}`;
}
