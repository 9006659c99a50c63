/**
 * Onboarding (spec sections 2 and 4): the community page, image uploads, sign-up widgets and the public sign-up,
 * as the gateway sends and takes them. One place for the console and the gateway.
 *
 * Wire names follow spec section 3 (`_id`, snake_case). Limits follow spec section 5: community
 * title and what_you_get items 255, short description 500, description 9999999, widget URL 255.
 */
import * as z from 'zod/mini';
import { idText, listQuery, page, text } from '@console/shared/contracts/core';

// ---------------------------------------------------------------------------------------------
// Limits (spec section 5)
// ---------------------------------------------------------------------------------------------

export const COMMUNITY_LIMITS = {
  title: 255,
  whatYouGetItem: 255,
  whatYouGetItems: 20,
  shortDescription: 500,
  description: 9_999_999,
  slug: 100,
  widgetUrl: 255,
} as const;

/** Onboarding and carousel priorities: 0 to 100 in steps of 10 (spec section 9). */
export const PRIORITY_OPTIONS = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100] as const;

/** Slugs: lower-case letters, digits and single dashes; they make the public page's address. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const priority = z.int().check(z.minimum(0), z.maximum(100), z.multipleOf(10, 'Use a step of 10.'));

// ---------------------------------------------------------------------------------------------
// Community
// ---------------------------------------------------------------------------------------------

export const Community = z.object({
  _id: z.string(),
  /** The community name (the tenant's name unless set otherwise); read-only on the community page screen. */
  title: z.string(),
  /** Read-only on the screen (spec section 2). */
  description: z.string(),
  short_description: z.string(),
  what_you_get: z.array(z.string()),
  slug: z.string(),
  /** The name widgets and the SDK know the community by (the slug); never sent back (spec: removed before save). */
  alias: z.string(),
  /** Stored image addresses (storage base + fileKey), or null. */
  logo: z.nullable(z.string()),
  background: z.nullable(z.string()),
  /** Onboarding priority, 0-100 step 10. */
  priority,
  /** 'Enable community': the public page and its sign-up form are live. */
  show: z.boolean(),
  carousel_priority: priority,
  show_on_carousel: z.boolean(),
  /** 'List on public page': listed on the public directory. */
  public: z.boolean(),
  /** The public community page's address (shown with an open link and a copy action). */
  url: z.string(),
  /** The list that sign-ups from the community page land in (tied to the community: not a widget target). */
  list_id: z.nullable(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Community = z.infer<typeof Community>;

/**
 * POST /v1/communities and PATCH /v1/communities/{id} (every field optional there). The gateway
 * answers 400 `{message, errors}` with field keys title, short_description, what_you_get,
 * description, slug, logo, background. Empty what_you_get entries are dropped by the server.
 */
export const CommunityInput = z.object({
  title: z.optional(text(COMMUNITY_LIMITS.title).check(z.trim())),
  description: z.optional(text(COMMUNITY_LIMITS.description)),
  short_description: z.optional(text(COMMUNITY_LIMITS.shortDescription)),
  what_you_get: z.optional(
    z.array(text(COMMUNITY_LIMITS.whatYouGetItem)).check(z.maxLength(COMMUNITY_LIMITS.whatYouGetItems)),
  ),
  slug: z.optional(text(COMMUNITY_LIMITS.slug).check(z.trim())),
  logo: z.optional(z.nullable(text(2048))),
  background: z.optional(z.nullable(text(2048))),
  priority: z.optional(priority),
  show: z.optional(z.boolean()),
  carousel_priority: z.optional(priority),
  show_on_carousel: z.optional(z.boolean()),
  public: z.optional(z.boolean()),
});
export type CommunityInput = z.infer<typeof CommunityInput>;

// ---------------------------------------------------------------------------------------------
// Uploads
// ---------------------------------------------------------------------------------------------

/** Image types the storage accepts; the gateway checks the bytes, not the name or the declared type. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];
/** Largest image accepted (bytes). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const GIF87 = ascii('GIF87a');
const GIF89 = ascii('GIF89a');
const RIFF = ascii('RIFF');
const WEBP = ascii('WEBP');

/** Bytes needed to recognise every image type of IMAGE_TYPES. */
export const SNIFF_BYTES = 12;

/**
 * What an image really is, by its first bytes (magic numbers), whatever its name or declared type: one
 * of IMAGE_TYPES, or null. The console checks a picked file with it before previewing, the gateway
 * every uploaded body (spec section 5: images only).
 */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, PNG)) return 'image/png';
  if (startsWith(bytes, JPEG)) return 'image/jpeg';
  if (startsWith(bytes, GIF87) || startsWith(bytes, GIF89)) return 'image/gif';
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return 'image/webp';
  return null;
}

/** What an upload is for: an image of the template designer is offered again in its image library. */
export const UPLOAD_PURPOSES = ['template_image'] as const;
export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];
/** Longest file name kept with an upload (it names the image in the designer's library). */
export const UPLOAD_NAME_MAX = 200;

/**
 * POST /v1/files/s3-presigned-url: the image type; the designer also says what the image is for and
 * the file's name (both optional: the community page and avatars send the type alone, spec section 7).
 */
export const PresignRequest = z.object({
  type: text(100),
  purpose: z.optional(z.enum(UPLOAD_PURPOSES)),
  name: z.optional(text(UPLOAD_NAME_MAX)),
});
export type PresignRequest = z.infer<typeof PresignRequest>;
/** PUT the file to `url` with its Content-Type and no Authorization; the stored address is storage base + fileKey. */
export const PresignResponse = z.object({ url: z.string(), fileKey: z.string(), fileUrl: z.string() });
export type PresignResponse = z.infer<typeof PresignResponse>;

/** One image of the designer's library: a stored upload of the tenant made for templates. */
export const TemplateImage = z.object({
  url: z.string(),
  name: z.string(),
  content_type: z.enum(IMAGE_TYPES),
  size: z.int(),
  uploaded_at: z.string(),
});
export type TemplateImage = z.infer<typeof TemplateImage>;
/** GET /v1/files/template-images: newest first. */
export const TemplateImageQuery = z.object({
  page: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(1_000_000)), 1),
  perPage: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 24),
});
export type TemplateImageQuery = z.infer<typeof TemplateImageQuery>;
export const TemplateImagePage = page(TemplateImage);
export type TemplateImagePage = z.infer<typeof TemplateImagePage>;

// ---------------------------------------------------------------------------------------------
// Widgets
// ---------------------------------------------------------------------------------------------

export const WIDGET_TYPES = ['Subscription Widget', 'Login Widget'] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];

export const Widget = z.object({
  _id: z.string(),
  type: z.enum(WIDGET_TYPES),
  target_id: z.string(),
  /** Name of the target list (for the grid). */
  target_name: z.string(),
  url: z.string(),
  /** Sign-ups through this widget. */
  count: z.int(),
  created_at: z.string(),
});
export type Widget = z.infer<typeof Widget>;

/** POST /v1/widgets. 400 field keys: type, target_id, url. */
export const WidgetInput = z.object({
  type: z.enum(WIDGET_TYPES),
  target_id: idText().check(z.minLength(1, 'Choose a list.')),
  url: text(COMMUNITY_LIMITS.widgetUrl).check(z.trim(), z.minLength(1, 'Enter the website URL.')),
});
export type WidgetInput = z.infer<typeof WidgetInput>;

export const WIDGET_SORT_FIELDS = ['created_at', 'type', 'url', 'count'] as const;
export const WidgetListQuery = listQuery(WIDGET_SORT_FIELDS, 'created_at');
export type WidgetListQuery = z.infer<typeof WidgetListQuery>;
export const WidgetPage = page(Widget);
export type WidgetPage = z.infer<typeof WidgetPage>;

// ---------------------------------------------------------------------------------------------
// Public sign-up (no session; called by the SDK from the widget's website and by the community page)
// ---------------------------------------------------------------------------------------------

/** GET /public/widgets/{id}: what the SDK needs to draw the widget. */
export const PublicWidget = z.object({
  _id: z.string(),
  type: z.enum(WIDGET_TYPES),
  community: z.object({ title: z.string(), alias: z.string(), logo: z.nullable(z.string()) }),
});
export type PublicWidget = z.infer<typeof PublicWidget>;

/** GET /public/widgets/{id}/challenge: a one-time sign-in message for a wallet to sign. */
export const WalletChallenge = z.object({ message: z.string(), nonce: z.string() });
export type WalletChallenge = z.infer<typeof WalletChallenge>;

/** POST /public/widgets/{id}/signups: an e-mail address, or a wallet with its signature of the challenge. */
export const SignupRequest = z.union([
  z.object({ email: text(254) }),
  z.object({
    wallet: text(64),
    message: text(2000),
    signature: text(200),
  }),
]);
export type SignupRequest = z.infer<typeof SignupRequest>;
/** The same answer whether or not the person was already subscribed. */
export const SignupResponse = z.object({ message: z.string() });
export type SignupResponse = z.infer<typeof SignupResponse>;

// ---------------------------------------------------------------------------------------------
// The embed snippet (Widget Code dialog): made here, read by the SDK the gateway serves
// ---------------------------------------------------------------------------------------------

/**
 * GET /v1/widgets/{id} and POST /v1/widgets answer a widget with what its snippet needs:
 * the SDK's base URL (SDK_BASE_URL, a CDN in production; the gateway by default) and the community.
 */
export const WidgetDetail = z.extend(Widget, {
  sdk_url: z.string(),
  community_id: z.string(),
  community_alias: z.string(),
});
export type WidgetDetail = z.infer<typeof WidgetDetail>;

/** File name of the SDK under the SDK base URL. */
export const SDK_FILE = 'emt-sdk.js';
/** Placeholders the community replaces in the subscribe variant (spec section 2). */
export const WALLET_CONNECT_PLACEHOLDER = 'YOUR_WALLETCONNECT_PROJECT_ID';
export const RPC_URL_PLACEHOLDER = 'YOUR_RPC_URL';

/** The data-* attributes the SDK reads from its own script tag, per widget type. */
export function widgetSnippetAttributes(w: WidgetDetail): [string, string][] {
  const common: [string, string][] = [
    ['data-widget-id', w._id],
    ['data-community-id', w.community_id],
    ['data-community-alias', w.community_alias],
  ];
  return w.type === 'Subscription Widget'
    ? [
        ...common,
        ['data-features', 'subscribe'],
        ['data-wallet-connect-project-id', WALLET_CONNECT_PLACEHOLDER],
        ['data-rpc-url', RPC_URL_PLACEHOLDER],
      ]
    : [...common, ['data-features', 'login'], ['data-type', 'wallet'], ['data-permission', 'write']];
}

const attr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The embed code: one external script tag (no inline script, so it also works on pages with a strict
 * CSP) that draws the widget where it is pasted.
 */
export function widgetSnippet(w: WidgetDetail): string {
  const attrs = widgetSnippetAttributes(w)
    .map(([k, v]) => `\n  ${k}="${attr(v)}"`)
    .join('');
  return `<!-- ${w.type} -->\n<script async src="${attr(`${w.sdk_url}/${SDK_FILE}`)}"${attrs}></script>`;
}
