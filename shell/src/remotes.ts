import type { ComponentType } from 'react';
import { PRELOAD_ERROR, runtimeConfig, type PreloadErrorDetail } from '@console/shared/config';
import type { ConsoleUser } from '@console/shared/session';
import { pageToPreload, remotesFor } from './remote-access';
import type { RemoteName, RouteDef } from './routes';

export interface PageModule {
  default: ComponentType;
}

/**
 * The federation runtime, loaded when a signed-in page starts (startFederation) or with the first remote,
 * never on the sign-in screen. Every call goes through this one promise, so registrations and loads keep
 * the order in which they were made; a failed download is tried again by the next call.
 */
let runtime: Promise<typeof import('./federation')> | null = null;
export function federation(): Promise<typeof import('./federation')> {
  runtime ??= import('./federation').catch((error: unknown) => {
    runtime = null;
    throw error;
  });
  return runtime;
}

/** Starts downloading the runtime while the token is verified, so the first remote does not wait for it. */
export function startFederation(): void {
  // A failure is silent here: the first remote's load reports it (loadPage).
  federation().catch(() => undefined);
}

/** The remotes registered in this page load, by name. */
const registered = new Set<string>();

/**
 * Register the remotes this user may use (remotesFor) that are not registered yet. Called after every
 * verification, so a remote the user's refreshed permissions open (spec section 4, refreshing
 * permissions) is registered without a reload; a role change (sign-in as another user, impersonation)
 * reloads the page.
 */
export function registerRemotesFor(user: ConsoleUser): void {
  const fresh = remotesFor(user, runtimeConfig()).filter((r) => !registered.has(r.name));
  if (fresh.length === 0) return;
  for (const r of fresh) registered.add(r.name);
  federation()
    .then((mf) => mf.registerRemotes(fresh))
    .catch((error: unknown) => console.error('[console] the federation runtime did not load', error));
}

/** Page modules whose download started before their route rendered (preloadRoute), by `remote/page`. */
const preloaded = new Map<string, Promise<PageModule | null>>();
/** Page modules loaded already (the MF runtime keeps them): nothing to preload. */
const loadedPages = new Set<string>();

/**
 * Starts downloading the route's remote page (manifest, remoteEntry, the exposed chunk and its shared
 * deps) without waiting for it, so the guard's verification and the download overlap instead of
 * running one after the other; only when pageToPreload allows it for `user` (the last verified one).
 * A failure is silent here: the page's own load reports it (loadPage).
 */
export function preloadRoute(route: RouteDef, user: ConsoleUser | null): void {
  const target = pageToPreload(route, user, runtimeConfig());
  if (!user || !target) return;
  const { remote, module: page } = target;
  const key = `${remote}/${page}`;
  if (preloaded.has(key) || loadedPages.has(key)) return;
  registerRemotesFor(user);
  const pending = federation().then((mf) => mf.loadRemote<PageModule>(key));
  preloaded.set(key, pending);
  // A failed preload is forgotten, so a later visit downloads again instead of reusing the failure.
  pending.catch(() => {
    if (preloaded.get(key) === pending) preloaded.delete(key);
  });
}

/** Loading a remote page dispatches the preload-error event and rethrows, and nothing else. */
export async function loadPage(remote: RemoteName, page: string): Promise<PageModule> {
  const key = `${remote}/${page}`;
  const pending = preloaded.get(key);
  preloaded.delete(key);
  try {
    const mod = await (pending ?? federation().then((mf) => mf.loadRemote<PageModule>(key)));
    if (!mod?.default) throw new Error(`${remote}/${page} exposes no page`);
    loadedPages.add(key);
    return mod;
  } catch (error) {
    const detail: PreloadErrorDetail = { remote, page, error };
    window.dispatchEvent(new CustomEvent(PRELOAD_ERROR, { detail }));
    throw error;
  }
}

/** After a failure, forget the cached remote entry so a retry fetches it again. */
export function resetRemote(remote: RemoteName): void {
  const entry = runtimeConfig().remotes[remote];
  if (!entry) return;
  federation()
    .then((mf) => mf.registerRemotes([{ name: remote, entry: entry.entry }], { force: true }))
    .catch((error: unknown) => console.error('[console] the federation runtime did not load', error));
}
