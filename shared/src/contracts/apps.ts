/**
 * Apps (the tenant side of applets): the add-on screens a tenant may open, listed under "Apps" in its
 * sidebar and loaded at run time as Module Federation remotes. GET /v1/apps, any user of a tenant (no
 * permission: the server alone decides which applets a tenant sees, from its plan and its settings).
 */
import * as z from 'zod/mini';

export const App = z.object({
  _id: z.string(),
  name: z.string(),
  /** The applet's address in the console: `/apps/<slug>`. */
  slug: z.string(),
  description: z.string(),
  /** An image address, or null for the default icon. */
  icon: z.nullable(z.string()),
  /** The applet's Module Federation manifest (`mf-manifest.json`). */
  manifest_url: z.string(),
  /** The module it exposes, e.g. `./Page` (its default export is the page). */
  module: z.string(),
});
export type App = z.infer<typeof App>;

export const AppList = z.object({ records: z.array(App) });
export type AppList = z.infer<typeof AppList>;
