/** Pure rules of the onboarding input (spec section 5): the community alias and texts, widget targets and URLs. */
import { COMMUNITY_LIMITS, SLUG_PATTERN } from '../contracts';

export const COMMUNITY_MESSAGES = {
  slugRequired: 'Enter an alias.',
  slugPattern: 'Use lower-case letters, digits and single dashes (for example my-community).',
  slugTaken: 'This alias is already taken.',
  uploadAgain: 'Upload the image again.',
  exists: 'Your tenant already has a community: edit it instead.',
  none: 'No community yet.',
  notFound: 'Community not found.',
} as const;

/** The problem with an alias, or null when it can be used (uniqueness is checked against the database). */
export function slugProblem(slug: string | undefined): string | null {
  if (!slug) return COMMUNITY_MESSAGES.slugRequired;
  if (slug.length > COMMUNITY_LIMITS.slug) return `Use at most ${COMMUNITY_LIMITS.slug} characters.`;
  return SLUG_PATTERN.test(slug) ? null : COMMUNITY_MESSAGES.slugPattern;
}

/** The alias a new community gets when none is chosen and nothing else can be used. */
export const FALLBACK_SLUG = 'community';
/** Room left in the alias for a `-N` suffix when the derived one is taken. */
const SLUG_BASE_LENGTH = COMMUNITY_LIMITS.slug - 8;

/**
 * The alias derived from a tenant's name for the community every tenant gets at creation: accents
 * dropped, lower-case letters and digits joined by single dashes, cut to leave room for a `-N` suffix,
 * never empty (a name of only symbols gets {@link FALLBACK_SLUG}). Matches `SLUG_PATTERN`.
 */
export function slugFromName(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
  let slug = '';
  for (const word of words) {
    const next = slug === '' ? word : `${slug}-${word}`;
    if (next.length > SLUG_BASE_LENGTH) {
      if (slug === '') slug = word.slice(0, SLUG_BASE_LENGTH);
      break;
    }
    slug = next;
  }
  return slug || FALLBACK_SLUG;
}

/** The n-th candidate alias for a derived base: the base itself, then `base-2`, `base-3`, … */
export function slugCandidate(base: string, n: number): string {
  return n === 1 ? base : `${base}-${n}`;
}

/** 'What you get' as stored: entries trimmed, blank ones dropped (the form always keeps one empty entry). */
export function cleanWhatYouGet(items: readonly string[]): string[] {
  return items.map((item) => item.trim()).filter((item) => item !== '');
}

/** The public community page's address. */
export function communityUrl(publicUrl: string, slug: string): string {
  return `${publicUrl}/c/${slug}`;
}

export const WIDGET_MESSAGES = {
  noCommunity: 'Set up your community page first.',
  targetUnknown: 'Choose one of your lists.',
  targetAutoimport: 'An auto-imported list cannot be a widget target.',
  targetCommunity: "The community's own list cannot be a widget target.",
  url: 'Enter the website address, starting with http:// or https://.',
  notFound: 'Widget not found.',
} as const;

/** The problem with a widget's website address, or null: an absolute http(s) URL with a host. */
export function websiteUrlProblem(url: string): string | null {
  if (url.length > COMMUNITY_LIMITS.widgetUrl) return `Use at most ${COMMUNITY_LIMITS.widgetUrl} characters.`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return WIDGET_MESSAGES.url;
  }
  const web = parsed.protocol === 'http:' || parsed.protocol === 'https:';
  return web && parsed.hostname !== '' ? null : WIDGET_MESSAGES.url;
}
