/**
 * E-mail templates and the designer (routes engagement/templates and engagement/template-designer of
 * spec section 2; permission `templates`), as the gateway sends and takes them. One place for the
 * console and the gateway.
 *
 * A template is MJML (what the designer edits and the server compiles to HTML with `mjml`), the
 * designer's own project data (so the designer reopens exactly as left), a subject and a preview text.
 * Merge tags use Liquid syntax (`{{ contact.first_name | default: "friend" }}`) in the MJML, the
 * subject and the preview text; the server resolves them per recipient. Every save keeps a version;
 * the last `TEMPLATE_LIMITS.versionsKept` are listed and can be restored.
 *
 * Wire names follow spec section 3 (`_id`, snake_case). Bad input is a 400 `{message, errors}` whose
 * keys are the fields below (`mjml` errors name the line: 'Line 12: ...'; Liquid errors in `subject`,
 * `preview_text` or `mjml` name the line and column).
 */
import * as z from 'zod/mini';
import { idText, listQuery, page, text } from '@console/shared/contracts/core';

// ---------------------------------------------------------------------------------------------
// Vocabulary and limits
// ---------------------------------------------------------------------------------------------

/** Marketing templates carry the footer with the postal address and the unsubscribe link; transactional ones need not. */
export const TEMPLATE_KINDS = ['marketing', 'transactional'] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

/** The starter gallery: designs made for web3 communities (responsive, readable in dark mode). */
export const TEMPLATE_STARTERS = ['newsletter', 'announcement', 'token-airdrop', 'event-invite'] as const;
export type TemplateStarter = (typeof TEMPLATE_STARTERS)[number];

export const TEMPLATE_LIMITS = {
  name: 100,
  subject: 255,
  previewText: 255,
  /** The MJML source, in bytes of UTF-8. */
  mjmlBytes: 1_000_000,
  /** The designer's project data as JSON, in bytes of UTF-8. */
  projectBytes: 5_000_000,
  /** Versions listed and restorable. */
  versionsKept: 20,
  /** Addresses of one test send. */
  testRecipients: 5,
} as const;

// ---------------------------------------------------------------------------------------------
// Templates
// ---------------------------------------------------------------------------------------------

/** Who last changed a template (null when the user has since been removed). */
export const TemplateEditor = z.object({ _id: z.string(), name: z.string() });

/** What still uses a template; a template used by a scheduled e-mail or an active automation cannot be deleted. */
export const TemplateUsage = z.object({
  scheduled_emails: z.int(),
  active_automations: z.int(),
  /** Names of the users, for the delete dialog ('Used by ...'); at most a few. */
  names: z.array(z.string()),
});
export type TemplateUsage = z.infer<typeof TemplateUsage>;

/** A row of the templates grid. */
export const TemplateSummary = z.object({
  _id: z.string(),
  name: z.string(),
  kind: z.enum(TEMPLATE_KINDS),
  subject: z.string(),
  preview_text: z.string(),
  /** The current version's number (1 for a new template). */
  version: z.int(),
  created_at: z.string(),
  updated_at: z.string(),
  updated_by: z.nullable(TemplateEditor),
  used_by: TemplateUsage,
});
export type TemplateSummary = z.infer<typeof TemplateSummary>;

/** One template, whole: what the designer opens. */
export const Template = z.extend(TemplateSummary, {
  mjml: z.string(),
  /** The designer's project data (GrapesJS `getProjectData()`), or null for a template made from MJML alone. */
  project: z.nullable(z.record(z.string(), z.unknown())),
});
export type Template = z.infer<typeof Template>;

export const TEMPLATE_SORT_FIELDS = ['updated_at', 'created_at', 'name'] as const;
export const TemplateListQuery = z.extend(listQuery(TEMPLATE_SORT_FIELDS, 'updated_at'), {
  kind: z.optional(z.enum(TEMPLATE_KINDS)),
});
export type TemplateListQuery = z.infer<typeof TemplateListQuery>;
export const TemplatePage = page(TemplateSummary);
export type TemplatePage = z.infer<typeof TemplatePage>;

/**
 * GET /v1/templates/choices: the marketing templates an e-mail may use, for compose's Content step
 * (spec section 6: view_engagement_emails or templates). Read-only: no kind filter, marketing only.
 */
export const TemplateChoiceQuery = listQuery(TEMPLATE_SORT_FIELDS, 'updated_at');
export type TemplateChoiceQuery = z.infer<typeof TemplateChoiceQuery>;

/**
 * POST /v1/templates: blank, from a built-in starter, or from a design of the platform's gallery
 * (`gallery_id`, a template the platform put in every community's gallery: its current content is copied).
 */
export const TemplateCreate = z.object({
  name: text(TEMPLATE_LIMITS.name).check(z.trim(), z.minLength(1, 'Name the template.')),
  kind: z._default(z.enum(TEMPLATE_KINDS), 'marketing'),
  starter: z.optional(z.nullable(z.enum(TEMPLATE_STARTERS))),
  gallery_id: z.optional(z.nullable(text(100))),
});
export type TemplateCreate = z.infer<typeof TemplateCreate>;

/**
 * PATCH /v1/templates/{id}: rename, or a designer save (every field optional). A save that changes
 * `mjml`, `project`, `subject` or `preview_text` makes a new version. `base_version` is the version
 * the designer loaded: when another save came in between, the server answers 409 and keeps both
 * (nothing is lost: the other save is a version of its own).
 */
export const TemplateUpdate = z.object({
  name: z.optional(text(TEMPLATE_LIMITS.name).check(z.trim(), z.minLength(1, 'Name the template.'))),
  kind: z.optional(z.enum(TEMPLATE_KINDS)),
  subject: z.optional(text(TEMPLATE_LIMITS.subject)),
  preview_text: z.optional(text(TEMPLATE_LIMITS.previewText)),
  mjml: z.optional(text(TEMPLATE_LIMITS.mjmlBytes)),
  project: z.optional(z.nullable(z.record(text(200), z.unknown()))),
  base_version: z.optional(z.int().check(z.minimum(1))),
});
export type TemplateUpdate = z.infer<typeof TemplateUpdate>;

/**
 * The 409 of a designer save whose `base_version` is no longer the current version: another save
 * came in between. Both are kept: the other save stays the current version, this one is stored as
 * `kept_version` (listed in the versions, restorable).
 */
export const TemplateConflict = z.object({
  message: z.string(),
  errors: z.optional(z.record(z.string(), z.array(z.string()))),
  /** The version saved meanwhile: the template's current version. */
  current_version: z.int(),
  /** This save, kept as a version of its own. */
  kept_version: z.int(),
});
export type TemplateConflict = z.infer<typeof TemplateConflict>;

/** A merge tag that is not known (spelled wrong, or an attribute since deleted): listed before saving. */
export const MergeTagWarning = z.object({
  tag: z.string(),
  /** Where it was found: 'subject', 'preview_text' or 'mjml'. */
  field: z.string(),
  message: z.string(),
});
export type MergeTagWarning = z.infer<typeof MergeTagWarning>;

/** The answer to a save: the template and the unknown merge tags it holds. */
export const TemplateSaved = z.object({ template: Template, warnings: z.array(MergeTagWarning) });
export type TemplateSaved = z.infer<typeof TemplateSaved>;

/** POST /v1/templates/{id}/duplicate takes an optional new name ('Copy of …' otherwise). */
export const TemplateDuplicate = z.object({
  name: z.optional(text(TEMPLATE_LIMITS.name).check(z.trim(), z.minLength(1, 'Name the template.'))),
});
export type TemplateDuplicate = z.infer<typeof TemplateDuplicate>;

// ---------------------------------------------------------------------------------------------
// Versions
// ---------------------------------------------------------------------------------------------

export const TemplateVersion = z.object({
  version: z.int(),
  created_at: z.string(),
  created_by: z.nullable(TemplateEditor),
  subject: z.string(),
});
export type TemplateVersion = z.infer<typeof TemplateVersion>;

/** GET /v1/templates/{id}/versions: the last `versionsKept`, newest first. Restoring one (POST …/versions/{version}/restore) saves it as a new version. */
export const TemplateVersionList = z.object({ records: z.array(TemplateVersion) });
export type TemplateVersionList = z.infer<typeof TemplateVersionList>;

// ---------------------------------------------------------------------------------------------
// Starters, merge tags, rendering, test sends
// ---------------------------------------------------------------------------------------------

/** GET /v1/templates/starters. */
export const TemplateStarterInfo = z.object({
  key: z.enum(TEMPLATE_STARTERS),
  name: z.string(),
  description: z.string(),
});
export type TemplateStarterInfo = z.infer<typeof TemplateStarterInfo>;
/** A design the platform put in every community's gallery (one of the platform tenant's templates). */
export const GalleryTemplate = z.object({
  _id: z.string(),
  name: z.string(),
  subject: z.string(),
  kind: z.enum(TEMPLATE_KINDS),
});
export type GalleryTemplate = z.infer<typeof GalleryTemplate>;
/** GET /v1/templates/starters: the built-in starters, then the platform's gallery (at most 100, by name). */
export const TemplateStarterList = z.object({
  records: z.array(TemplateStarterInfo),
  gallery: z.array(GalleryTemplate),
});

/**
 * PUT /v1/templates/{id}/gallery: super admins put one of the platform tenant's templates in every
 * community's starter gallery, or take it out.
 */
export const TemplateGalleryBody = z.object({ in_gallery: z.boolean() });
export type TemplateGalleryBody = z.infer<typeof TemplateGalleryBody>;
export type TemplateStarterList = z.infer<typeof TemplateStarterList>;

/** A merge tag the designer's menu offers: `tag` is what goes between `{{ }}` (e.g. 'contact.first_name'). */
export const MergeTag = z.object({ tag: z.string(), label: z.string(), example: z.string() });
export const MergeTagGroup = z.object({ label: z.string(), tags: z.array(MergeTag) });
/** GET /v1/templates/merge-tags: contact fields, the tenant's custom attributes, community fields, links. */
export const MergeTagCatalogue = z.object({ groups: z.array(MergeTagGroup) });
export type MergeTagCatalogue = z.infer<typeof MergeTagCatalogue>;

/**
 * POST /v1/templates/{id}/preview: the saved template rendered by the server, with merge tags
 * resolved for `contact_id` (a contact of the tenant) or for sample values when it is absent.
 * `version` previews one of the listed versions (before restoring it); the current one otherwise.
 */
export const TemplatePreviewRequest = z.object({
  contact_id: z.optional(z.nullable(idText())),
  version: z.optional(z.nullable(z.int().check(z.minimum(1)))),
});
export type TemplatePreviewRequest = z.infer<typeof TemplatePreviewRequest>;
export const TemplatePreview = z.object({
  subject: z.string(),
  preview_text: z.string(),
  /** Shown only in a sandboxed iframe (no scripts, no same-origin). */
  html: z.string(),
  text: z.string(),
  warnings: z.array(MergeTagWarning),
});
export type TemplatePreview = z.infer<typeof TemplatePreview>;

/** GET /v1/templates/{id}/html: the current version compiled (merge tags left as written), for thumbnails. */
export const TemplateHtml = z.object({ version: z.int(), html: z.string() });
export type TemplateHtml = z.infer<typeof TemplateHtml>;
/** GET /v1/templates/starters/{key}/html, …/starters/gallery/{id}/html: a starter merged for sample values (thumbnails). */
export const TemplateStarterHtml = z.object({ html: z.string() });
export type TemplateStarterHtml = z.infer<typeof TemplateStarterHtml>;
/** The path of a built-in starter's thumbnail. */
export const StarterParams = z.object({ key: z.enum(TEMPLATE_STARTERS) });

/** POST /v1/templates/{id}/test: the saved template to up to five addresses, merged for a contact or sample values. */
export const TemplateTestSend = z.object({
  recipients: z
    .array(z.email({ error: 'Enter a valid e-mail address.' }))
    .check(z.minLength(1, 'Add an address.'), z.maxLength(TEMPLATE_LIMITS.testRecipients)),
  contact_id: z.optional(z.nullable(idText())),
});
export type TemplateTestSend = z.infer<typeof TemplateTestSend>;
export const TemplateTestSent = z.object({ message: z.string(), sent: z.int() });
export type TemplateTestSent = z.infer<typeof TemplateTestSent>;

// ---------------------------------------------------------------------------------------------
// Social icons (served by the gateway: e-mail clients need PNG, and nothing is fetched from the MJML authors' host)
// ---------------------------------------------------------------------------------------------

/**
 * The social networks whose icons the gateway serves, as PNG (a white glyph on a transparent
 * 64×64 square, shown on the social element's background colour): `GATEWAY_PUBLIC_URL` +
 * `socialIconPath(name)`. The first seventeen are MJML's own network names, so on the server
 * `<mj-social-element name="x">` needs no `src`; the others are networks of web3 communities
 * (the server fills in their icon and colour too). The designer sets `src` and `background-color`
 * itself (the MJML in the browser knows only its authors' host).
 */
export const SOCIAL_ICONS = [
  'facebook',
  'twitter',
  'x',
  'google',
  'pinterest',
  'linkedin',
  'instagram',
  'web',
  'snapchat',
  'youtube',
  'tumblr',
  'github',
  'xing',
  'vimeo',
  'medium',
  'soundcloud',
  'dribbble',
  'discord',
  'telegram',
  'reddit',
  'farcaster',
  'lens',
  'bluesky',
  'mastodon',
  'tiktok',
  'twitch',
  'substack',
] as const;
export type SocialIcon = (typeof SOCIAL_ICONS)[number];

/** The background colour of each network's icon (MJML's own for its networks). */
export const SOCIAL_ICON_COLORS: Record<SocialIcon, string> = {
  facebook: '#3b5998',
  twitter: '#55acee',
  x: '#000000',
  google: '#dc4e41',
  pinterest: '#bd081c',
  linkedin: '#0077b5',
  instagram: '#3f729b',
  web: '#4BADE9',
  snapchat: '#FFFA54',
  youtube: '#EB3323',
  tumblr: '#344356',
  github: '#000000',
  xing: '#296366',
  vimeo: '#53B4E7',
  medium: '#000000',
  soundcloud: '#EF7F31',
  dribbble: '#D95988',
  discord: '#5865F2',
  telegram: '#229ED9',
  reddit: '#FF4500',
  farcaster: '#855DCD',
  lens: '#00501E',
  bluesky: '#1185FE',
  mastodon: '#6364FF',
  tiktok: '#000000',
  twitch: '#9146FF',
  substack: '#FF6719',
};

/** Where the gateway serves a network's icon, from its public address: `/static/social/x.png`. */
export function socialIconPath(name: SocialIcon): string {
  return `/static/social/${name}.png`;
}

// ---------------------------------------------------------------------------------------------
// The routes (gateway; permission `templates`; the caller's tenant: another tenant's id is a 404)
// ---------------------------------------------------------------------------------------------
//
// GET    /v1/templates                                   TemplateListQuery -> TemplatePage
// GET    /v1/templates/choices                           TemplateChoiceQuery -> TemplatePage (marketing)
// POST   /v1/templates                                   TemplateCreate -> 201 Template
// GET    /v1/templates/starters                          -> TemplateStarterList
// GET    /v1/templates/merge-tags                        -> MergeTagCatalogue
// GET    /v1/templates/{id}                              -> Template
// PATCH  /v1/templates/{id}                              TemplateUpdate -> TemplateSaved; 409 TemplateConflict
// DELETE /v1/templates/{id}                              -> {message}; 409 {message} naming what uses it
// POST   /v1/templates/{id}/duplicate                    TemplateDuplicate -> 201 Template
// GET    /v1/templates/{id}/versions                     -> TemplateVersionList
// POST   /v1/templates/{id}/versions/{version}/restore   -> TemplateSaved (the restored content as a new version)
// POST   /v1/templates/{id}/preview                      TemplatePreviewRequest -> TemplatePreview
// GET    /v1/templates/{id}/html                         -> TemplateHtml
// POST   /v1/templates/{id}/test                         TemplateTestSend -> TemplateTestSent; 429 over the hourly limit
// GET    /static/social/{name}.png                       public, no authorization (SOCIAL_ICONS)
