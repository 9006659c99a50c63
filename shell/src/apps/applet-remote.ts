import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';
import type { App } from '@console/shared/contracts';
import { appletModuleId, appletRemoteName } from './apps-menu';

/** The manifest each applet's remote is registered with, by remote name. */
const registered = new Map<string, string>();

/**
 * Registers an applet's remote at run time from its manifest (`registerRemotes`, like the built-in
 * areas), only when its page is opened: an applet is registered, and its files requested, only if
 * GET /v1/apps listed it for the tenant. A changed manifest address replaces the registration.
 */
export function registerApplet(app: Pick<App, 'slug' | 'manifest_url'>, force = false): void {
  const name = appletRemoteName(app.slug);
  const known = registered.get(name);
  if (known === app.manifest_url && !force) return;
  registerRemotes([{ name, entry: app.manifest_url }], known === undefined && !force ? undefined : { force: true });
  registered.set(name, app.manifest_url);
}

/** The applet's page: the default export of its module. */
export async function loadApplet(app: App): Promise<ComponentType> {
  registerApplet(app);
  const mod = await loadRemote<{ default?: ComponentType }>(appletModuleId(app));
  if (!mod?.default) throw new Error(`${app.slug} exposes no page at ${app.module}`);
  return mod.default;
}
