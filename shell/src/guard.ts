import { redirect } from '@console/shared/router';
import Cookies from 'js-cookie';
import { accessDecision, isPublicPath } from '@console/shared/access';
import { ApiError } from '@console/shared/api';
import { clearSession, consoleStore, loadUser } from '@console/shared/session';
import { preloadRoute, registerRemotesFor, startFederation } from './remotes';
import type { RouteDef } from './routes';

/**
 * The guard of spec sections 4-5, run as the loader of every route, so it finishes before the page
 * renders and before any remote code is requested: no token -> sign-out; token -> verify and load the
 * user (verification failure -> sign-out -> /login); then the access rule; a denied route goes to /,
 * opening the upgrade dialog when the missing permission is a feature the plan lacks. Public paths
 * (isPublicPath) skip all of it.
 *
 * The guard's sign-out clears the session and both cookies and redirects inside the router: a full
 * reload on top of the router's own redirect raced it. Signing out from the menu still reloads.
 */
export async function guard(route: RouteDef, pathname: string): Promise<null> {
  if (isPublicPath(pathname)) return null;
  if (!Cookies.get('token')) {
    clearSession();
    throw redirect('/login');
  }
  // While the token is verified, the federation runtime and the route's remote page start to download
  // (the page only if the last verified user may open it: pageToPreload): the route change waits for the
  // longer of the two, not their sum. What renders is still decided by this verification's answer below.
  startFederation();
  preloadRoute(route, consoleStore.getState().user);
  let user;
  try {
    user = await loadUser();
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      clearSession();
      throw redirect('/login');
    }
    throw error;
  }
  registerRemotesFor(user);
  const decision = accessDecision(route, user);
  if (!decision.allowed) {
    if (decision.upgrade) consoleStore.getState().openUpgrade(decision.upgrade);
    throw redirect('/');
  }
  return null;
}
