import type { ComponentType } from 'react';
import type { App } from '@console/shared/contracts';
import { federation } from '../remotes';
import { appletModuleId, appletRemoteName } from './apps-menu';

/** The manifest each applet's remote is registered with, by remote name. */
const registered = new Map<string, string>();
/** The latest registration of each applet's remote in the federation runtime, by remote name. */
const registering = new Map<string, Promise<void>>();

/**
 * Registers an applet's remote at run time from its manifest (`registerRemotes`, like the built-in
 * areas), only when its page is opened: an applet is registered, and its files requested, only if
 * GET /v1/apps listed it for the tenant. A changed manifest address replaces the registration.
 * Resolves once the runtime holds the registration.
 */
export function registerApplet(app: Pick<App, 'slug' | 'manifest_url'>, force = false): Promise<void> {
  const name = appletRemoteName(app.slug);
  const known = registered.get(name);
  if (known === app.manifest_url && !force) return registering.get(name) ?? Promise.resolve();
  registered.set(name, app.manifest_url);
  const options = known === undefined && !force ? undefined : { force: true };
  const done = federation().then((mf) => mf.registerRemotes([{ name, entry: app.manifest_url }], options));
  registering.set(name, done);
  return done;
}

/** The applet's page: the default export of its module. */
export async function loadApplet(app: App): Promise<ComponentType> {
  await registerApplet(app);
  const mf = await federation();
  const mod = await mf.loadRemote<{ default?: ComponentType }>(appletModuleId(app));
  if (!mod?.default) throw new Error(`${app.slug} exposes no page at ${app.module}`);
  return mod.default;
}
