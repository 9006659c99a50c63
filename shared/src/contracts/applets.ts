/**
 * Applets (spec sections 2, 3 and 7): add-on screens the platform offers to tenants, each a Module Federation
 * remote named by its manifest address and the module it exposes. Administered with admin_applets.
 */
import * as z from 'zod/mini';
import { idText, listQuery, page, text } from '@console/shared/contracts/core';

/** Limits and messages of the applet form; the gateway enforces the same. */
export const APPLET_LIMITS = { name: 100, slugMin: 2, slug: 50, description: 500, url: 2000, module: 200, plans: 50 };

export const APPLET_MESSAGES = {
  name: 'Enter a name.',
  slug: 'Use 2 to 50 lowercase letters, digits and hyphens.',
  slugTaken: 'Another applet already uses this slug.',
  url: 'Enter an http:// or https:// address.',
  module: 'Choose a module the manifest exposes, e.g. ./Page.',
  moduleNotExposed: 'The manifest does not expose this module.',
  planUnknown: 'Choose plans from the catalogue.',
  idMismatch: 'The id in the body must be the id in the address.',
  notFound: 'Applet not found.',
  deleted: 'Applet deleted.',
} as const;

/** A slug: lowercase letters, digits and hyphens, 2 to 50 characters. */
export const APPLET_SLUG = /^[a-z0-9-]{2,50}$/;
/** A module as a remote exposes it: `./Name` (letters, digits, _ . - and / after the `./`). */
export const APPLET_MODULE = /^\.\/[A-Za-z0-9_][A-Za-z0-9_./-]*$/;

/** True for an absolute http:// or https:// address with a host. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const httpUrl = () =>
  text(APPLET_LIMITS.url, APPLET_MESSAGES.url).check(z.trim(), z.refine(isHttpUrl, APPLET_MESSAGES.url));

export const Applet = z.object({
  _id: z.string(),
  name: z.string(),
  slug: z.string(),
  description: z.string(),
  /** An image address, or null for the default icon. */
  icon: z.nullable(z.string()),
  /** The remote's mf-manifest.json. */
  manifest_url: z.string(),
  /** The exposed module the shell loads ('./Page'). */
  module: z.string(),
  /** The plans that include the applet (tenant settings may enable it beyond these). */
  plan_ids: z.array(z.string()),
  enabled: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Applet = z.infer<typeof Applet>;

export const APPLET_SORT_FIELDS = ['created_at', 'updated_at', 'name', 'slug', 'enabled'] as const;
export type AppletSortField = (typeof APPLET_SORT_FIELDS)[number];
/** GET /v1/applets: the list query of spec section 3 (perPage up to 1000: the full fetch). */
export const AppletListQuery = listQuery(APPLET_SORT_FIELDS, 'created_at');
export type AppletListQuery = z.infer<typeof AppletListQuery>;
export const AppletPage = page(Applet);
export type AppletPage = z.infer<typeof AppletPage>;
/** The full fetch (spec section 9: applets full fetch 1000), e.g. for the tenant settings' applet picker. */
export const APPLETS_FULL_FETCH = 1000;

const fields = {
  name: text(APPLET_LIMITS.name).check(z.trim(), z.minLength(1, APPLET_MESSAGES.name)),
  slug: text(APPLET_LIMITS.slug, APPLET_MESSAGES.slug).check(z.trim(), z.regex(APPLET_SLUG, APPLET_MESSAGES.slug)),
  description: text(APPLET_LIMITS.description).check(z.trim()),
  /** Empty means none. */
  icon: z.nullable(
    text(APPLET_LIMITS.url, APPLET_MESSAGES.url).check(
      z.trim(),
      z.refine((v) => v === '' || isHttpUrl(v), APPLET_MESSAGES.url),
    ),
  ),
  manifest_url: httpUrl(),
  module: text(APPLET_LIMITS.module, APPLET_MESSAGES.module).check(
    z.trim(),
    z.regex(APPLET_MODULE, APPLET_MESSAGES.module),
  ),
  plan_ids: z.array(idText()).check(z.maxLength(APPLET_LIMITS.plans)),
  enabled: z.boolean(),
};

/**
 * POST /v1/applets. 400 field keys: name, slug (format, or taken), description, icon, manifest_url (not http(s),
 * or the manifest cannot be read), module (format, or not exposed by the manifest), plan_ids (unknown plans).
 */
export const AppletBody = z.object({
  name: fields.name,
  slug: fields.slug,
  description: z._default(fields.description, ''),
  icon: z._default(z.optional(fields.icon), null),
  manifest_url: fields.manifest_url,
  module: fields.module,
  plan_ids: z._default(fields.plan_ids, []),
  enabled: z._default(fields.enabled, true),
});
export type AppletBody = z.input<typeof AppletBody>;

/** PATCH /v1/applets/{id} (spec section 7: id in body): `_id` must be the path's id (else 400); other fields optional. */
export const AppletUpdateBody = z.object({
  _id: idText(),
  name: z.optional(fields.name),
  slug: z.optional(fields.slug),
  description: z.optional(fields.description),
  icon: z.optional(fields.icon),
  manifest_url: z.optional(fields.manifest_url),
  module: z.optional(fields.module),
  plan_ids: z.optional(fields.plan_ids),
  enabled: z.optional(fields.enabled),
});
export type AppletUpdateBody = z.infer<typeof AppletUpdateBody>;

/** POST /v1/applets/inspect: the gateway reads the manifest at this address. */
export const AppletInspectBody = z.object({ manifest_url: fields.manifest_url });
export type AppletInspectBody = z.infer<typeof AppletInspectBody>;

/** What a manifest declares: the remote's name and the modules it exposes ('./Page'). */
export const AppletManifest = z.object({ name: z.string(), exposes: z.array(z.string()) });
export type AppletManifest = z.infer<typeof AppletManifest>;
