import { menuItemState, type AccessSubject, type MenuItemState, type Permission } from '@console/shared/access';
import { menuPermissionOf, ROUTES, SIDEBAR_GROUPS, type MenuPlacement, type RouteDef } from './routes';

/**
 * The sidebar and header menus of spec section 2, derived from the page registry (routes.ts) and
 * resolved per user with the menu rule. Components only render what this returns.
 */
export interface MenuLink {
  label: string;
  to: string;
  state: Exclude<MenuItemState, 'hidden'>;
  permission?: Permission;
  external?: boolean;
}
export interface MenuGroup {
  label: string | null;
  items: MenuLink[];
}

export interface MenuSubject extends AccessSubject {
  tenant_id: string | null;
}

type Placed<M extends MenuPlacement['menu']> = { route: RouteDef; at: Extract<MenuPlacement, { menu: M }> };

/** The registry's entries of one menu, in their menu order. */
function entries<M extends MenuPlacement['menu']>(menu: M): Placed<M>[] {
  return ROUTES.flatMap((route) =>
    route.menus
      .filter((at): at is Extract<MenuPlacement, { menu: M }> => at.menu === menu)
      .map((at) => ({ route, at })),
  ).sort((a, b) => a.at.order - b.at.order);
}

const TENANT_SIDEBAR = entries('sidebar');
const SUPER_ADMIN_SIDEBAR = entries('admin-sidebar');
const HEADER_MENU = entries('header');

/** The menu rule of spec section 6 with the page's menu permission; null when the entry is hidden. */
function resolve({ route, at }: { route: RouteDef; at: MenuPlacement }, user: MenuSubject): MenuLink | null {
  if (at.menu === 'sidebar' && at.onlyWhileImpersonating && !user.is_impersonating) return null;
  const permission = menuPermissionOf(route);
  const state = menuItemState(permission, user);
  if (state === 'hidden') return null;
  return { label: at.label, to: route.path, state, permission };
}

/** Sidebar groups for a user; null means no sidebar at all (global_admin: no sidebar, no toggle). */
export function sidebarFor(user: MenuSubject, docsUrl: string): MenuGroup[] | null {
  if (user.role === 'global_admin') return null;
  if (user.role === 'super_admin') {
    return [
      {
        label: null,
        items: SUPER_ADMIN_SIDEBAR.map(({ route, at }) => ({ label: at.label, to: route.path, state: 'shown' })),
      },
    ];
  }
  const groups = SIDEBAR_GROUPS.map((group) => ({
    label: group,
    items: TENANT_SIDEBAR.filter((e) => e.at.group === group).flatMap((e) => resolve(e, user) ?? []),
  })).filter((g) => g.items.length > 0);
  groups.push({ label: null, items: [{ label: 'Developer Docs', to: docsUrl, state: 'shown', external: true }] });
  return groups;
}

/** Header menu entries (Sign Out is added by the header itself). Account pages need a tenant. */
export function headerMenuFor(user: MenuSubject): MenuLink[] {
  if (user.tenant_id === null) return [];
  return HEADER_MENU.flatMap((e) => resolve(e, user) ?? []);
}
