import { accessDecision, isPublicPath } from '@console/shared/access';
import { SESSION_REFRESHED } from '@console/shared/config';
import { consoleStore } from '@console/shared/session';
import { registerRemotesFor } from './remotes';
import { ROUTES } from './routes';

/** What of the router the refresh needs: the page shown and a way to leave it. */
export interface RefreshRouter {
  state: { location: { pathname: string }; matches: readonly { route: { id?: string } }[] };
  navigate: (to: string) => Promise<void> | void;
}

/**
 * Spec section 4, refreshing permissions: once the session user was verified and loaded again
 * (SESSION_REFRESHED), the guard's rule is applied to the page shown, without a reload: the remotes the
 * user may now use are registered, and a page the user may no longer open goes to / (opening the
 * upgrade dialog when the plan lacks the feature), as the guard does on a navigation. The menus read
 * the store and follow by themselves.
 */
export function applyRefreshedSession(router: RefreshRouter): void {
  const user = consoleStore.getState().user;
  const { pathname } = router.state.location;
  if (!user || isPublicPath(pathname)) return;
  registerRemotesFor(user);
  const ids = new Set(router.state.matches.map((m) => m.route.id));
  const route = ROUTES.find((r) => ids.has(r.name));
  if (!route) return;
  const decision = accessDecision(route, user);
  if (decision.allowed) return;
  if (decision.upgrade) consoleStore.getState().openUpgrade(decision.upgrade);
  void router.navigate('/');
}

/** Follows every refresh of the session for the app's lifetime; returns the unsubscribe. */
export function followSessionRefreshes(router: RefreshRouter): () => void {
  const onRefreshed = () => applyRefreshedSession(router);
  window.addEventListener(SESSION_REFRESHED, onRefreshed);
  return () => window.removeEventListener(SESSION_REFRESHED, onRefreshed);
}
