import { featureForPermission, type Feature, type Permission, type Role } from './vocabulary';

/** Route meta of spec section 3. */
export interface RouteMeta {
  name: string;
  path: string;
  permission?: Permission;
  allowWhileImpersonating?: boolean;
  allowTenant?: boolean;
  /**
   * The permission the menus give the page where it differs from its route row (spec section 2: the
   * header's General Settings and Billing need company_settings, their routes none). The page needs it
   * too, so opening its URL without it is denied like a menu entry the user does not see.
   */
  menuPermission?: Permission;
}

/** What the access and menu rules need to know about the signed-in user. */
export interface AccessSubject {
  role: Role;
  permissions: readonly Permission[];
  features: readonly Feature[];
  is_impersonating: boolean;
}

/**
 * Spec section 2: these paths skip the access check. Ours besides: the invitation page (Manage
 * Users), whose visitor has no account yet, and the e-mailed sign-in link (docs/auth.md).
 */
export function isPublicPath(pathname: string): boolean {
  return (
    pathname === '/login' ||
    pathname.startsWith('/sign-in/') ||
    pathname.startsWith('/invitation/') ||
    pathname.startsWith('/reset') ||
    pathname === '/confirm-email' ||
    pathname === '/checkout' ||
    pathname.startsWith('/checkout/')
  );
}

/**
 * Spec section 5, exactly: allowed if the route has no permission, or the user has it, or the route
 * allows impersonation and the user is impersonating, or the route is advertising/emails/log and the
 * role is super_admin. Paths under /advertising additionally need impersonating, super_admin, or
 * route meta allowTenant.
 */
function routeRowAllows(route: RouteMeta, user: AccessSubject): boolean {
  const permitted =
    !route.permission ||
    user.permissions.includes(route.permission) ||
    (route.allowWhileImpersonating === true && user.is_impersonating) ||
    (route.name === 'advertising/emails/log' && user.role === 'super_admin');
  if (!permitted) return false;
  if (route.path === '/advertising' || route.path.startsWith('/advertising/')) {
    return user.is_impersonating || user.role === 'super_admin' || route.allowTenant === true;
  }
  return true;
}

/**
 * The route row's rule (spec section 5) and, where the page's menu entry asks for another permission,
 * that one as well: a page is never reachable by URL for a user its menu entry is hidden from.
 */
export function canAccess(route: RouteMeta, user: AccessSubject): boolean {
  return routeRowAllows(route, user) && (!route.menuPermission || user.permissions.includes(route.menuPermission));
}

export type AccessDecision = { allowed: true } | { allowed: false; upgrade: Feature | null };

/**
 * canAccess plus why not: when the missing permission is a feature the tenant's plan lacks, the
 * guard opens the upgrade dialog (spec section 4: "Navigating without the needed permission opens the
 * upgrade dialog instead").
 */
export function accessDecision(route: RouteMeta, user: AccessSubject): AccessDecision {
  if (canAccess(route, user)) return { allowed: true };
  const missing = routeRowAllows(route, user) ? route.menuPermission : route.permission;
  const feature = missing ? featureForPermission(missing) : null;
  return { allowed: false, upgrade: feature && !user.features.includes(feature) ? feature : null };
}

export type MenuItemState = 'hidden' | 'locked' | 'shown';

/**
 * Spec section 6 menu rule: shown locked (opening the upgrade dialog) when the plan lacks the
 * feature; hidden when the plan has it (or no feature gates it) and the user lacks the permission.
 */
export function menuItemState(permission: Permission | undefined, user: AccessSubject): MenuItemState {
  if (!permission) return 'shown';
  const feature = featureForPermission(permission);
  if (feature && !user.features.includes(feature)) return 'locked';
  return user.permissions.includes(permission) ? 'shown' : 'hidden';
}

/** Spec section 1: the experimental flag, from a case-insensitive tenant-name prefix. */
export function hasExperimentalFeatures(tenantName: string | null, prefix: string): boolean {
  if (!tenantName || !prefix) return false;
  return tenantName.toLowerCase().startsWith(prefix.toLowerCase());
}
