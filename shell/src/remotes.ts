import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';
import { PRELOAD_ERROR, runtimeConfig, type PreloadErrorDetail } from '@console/shared/config';
import type { SessionUser } from '@console/shared/contracts/core';
import type { ConsoleUser } from '@console/shared/session';
import { pageToPreload, remotesFor } from './remote-access';
import type { RemoteName, RouteDef } from './routes';

export interface PageModule {
  default: ComponentType;
}

let registered = false;

/** Register (once per page load) only the remotes this user may use. Role changes reload the page. */
export function registerRemotesFor(user: SessionUser): void {
  if (registered) return;
  registerRemotes(remotesFor(user, runtimeConfig()));
  registered = true;
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
  const pending = loadRemote<PageModule>(key);
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
    const mod = await (pending ?? loadRemote<PageModule>(key));
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
  if (entry) registerRemotes([{ name: remote, entry: entry.entry }], { force: true });
}
