import type { RuntimeConfig } from '@console/shared/config';
import { accessDecision, ADMIN_PERMISSIONS, canAccess, type AccessSubject } from '@console/shared/access';
import type { SessionUser } from '@console/shared/contracts/core';
import { ROUTES, type RemoteName, type RouteDef } from './routes';

/** A platform admin holds an admin permission: the only users who may download the admin remote. */
export function isPlatformAdmin(user: Pick<AccessSubject, 'permissions'>): boolean {
  return user.permissions.some((p) => ADMIN_PERMISSIONS.includes(p));
}

/**
 * Which remotes a signed-in user may download: those hosting at least one page of the route table the
 * user may open (the access rule of spec section 5; spec section 2 gives Your Profile and Change
 * Password no permission, so every signed-in user, with a tenant or without, gets the account area),
 * and the admin area only for holders of an admin permission. Tenant staff never request the admin
 * remote's files.
 */
export function remotesFor(user: AccessSubject, config: RuntimeConfig, routes: readonly RouteDef[] = ROUTES) {
  const admin = isPlatformAdmin(user);
  const opens = (name: string) =>
    routes.some((route) => 'remote' in route.page && route.page.remote === name && canAccess(route, user));
  return Object.entries(config.remotes)
    .filter(([name, r]) => (r.audience === 'admin' ? admin : true) && opens(name))
    .map(([name, r]) => ({ name, entry: r.entry }));
}

/**
 * The remote page to start downloading while the guard verifies the session for `route`, or null.
 * `user` is the user of the last verification (null on a fresh page load: nothing is preloaded before
 * the first one). Only a page that user may open (the access rule of spec section 5) from a remote
 * that user may download (remotesFor; the admin remote only for platform admins) is preloaded, so a
 * preload never fetches what the guard's own answer would not have fetched for that user.
 */
export function pageToPreload(
  route: RouteDef,
  user: (AccessSubject & Pick<SessionUser, 'tenant_id'>) | null,
  config: RuntimeConfig,
): { remote: RemoteName; module: string } | null {
  if (!user || !('remote' in route.page)) return null;
  const { remote, module } = route.page;
  if (remote === 'mfe_admin' && !isPlatformAdmin(user)) return null;
  if (!remotesFor(user, config).some((r) => r.name === remote)) return null;
  if (!accessDecision(route, user).allowed) return null;
  return { remote, module };
}
