import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';
import { PRELOAD_ERROR, runtimeConfig, type PreloadErrorDetail } from '@console/shared/config';
import { type SessionUser } from '@console/shared/contracts/core';
import { remotesFor } from './remote-access';
import type { RemoteName } from './routes';

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

/** Loading a remote page dispatches the preload-error event and rethrows, and nothing else. */
export async function loadPage(remote: RemoteName, page: string): Promise<PageModule> {
  try {
    const mod = await loadRemote<PageModule>(`${remote}/${page}`);
    if (!mod?.default) throw new Error(`${remote}/${page} exposes no page`);
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
