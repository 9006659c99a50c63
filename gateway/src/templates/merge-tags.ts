/**
 * The merge tags (Liquid variables) a template may use, what they hold for one recipient, and the
 * warnings about tags that are not known (spelled wrong, or an attribute since deleted): those print
 * nothing, and are listed when saving rather than refused (a designer autosave must not fail on them).
 *
 * contact.first_name, .last_name, .email, .wallet     the contact's fields
 * contact.<key>                                      the tenant's custom attributes (keys cannot be a field's name)
 * community.name, .url, .postal_address              the community (name and page) and the tenant's postal address
 * unsubscribe_url, view_in_browser_url               links made for each recipient when sending
 */
import type { AttributeType, MergeTagCatalogue, MergeTagWarning, TemplateKind } from '../contracts';
import type { TemplateContent } from './render/compile';
import { htmlLiquid, parseLiquid, variablesOf } from './render/liquid';

/** What a template is merged with, for one recipient. */
export interface MergeScope {
  contact: Record<string, string | number | boolean | null>;
  community: { name: string; url: string; postal_address: string };
  unsubscribe_url: string;
  view_in_browser_url: string;
}

export interface AttributeInfo {
  id: string;
  key: string;
  name: string;
  type: AttributeType;
}

export interface CommunityInfo {
  name: string;
  /** The public community page. */
  url: string;
  postal_address: string | null;
}

/** A contact as stored: custom attribute values keyed by attribute id. */
export interface ContactInfo {
  email: string | null;
  wallet: string | null;
  first_name: string;
  last_name: string;
  attributes: Record<string, unknown>;
}

export interface MessageLinks {
  unsubscribe_url: string;
  view_in_browser_url: string;
}

const CONTACT_FIELDS = [
  { key: 'first_name', label: 'First name', example: 'Ada' },
  { key: 'last_name', label: 'Last name', example: 'Lovelace' },
  { key: 'email', label: 'E-mail', example: 'ada@example.com' },
  { key: 'wallet', label: 'Wallet', example: '0x52908400098527886E0F7030069857D2E4169EE7' },
] as const;

const COMMUNITY_FIELDS = [
  { key: 'name', label: 'Community name' },
  { key: 'url', label: 'Community page' },
  { key: 'postal_address', label: 'Postal address' },
] as const;

const LINKS = [
  { key: 'unsubscribe_url', label: 'Unsubscribe link' },
  { key: 'view_in_browser_url', label: 'View in browser link' },
] as const;

const ATTRIBUTE_EXAMPLES: Record<AttributeType, string | number | boolean> = {
  text: 'Sample text',
  number: 42,
  date: '2026-05-01',
  boolean: true,
  wallet: '0x52908400098527886E0F7030069857D2E4169EE7',
};

/** Links of previews and test sends: the real ones are made per recipient when a campaign sends. */
export function sampleLinks(publicUrl: string): MessageLinks {
  return {
    unsubscribe_url: `${publicUrl}/email/unsubscribe/sample`,
    view_in_browser_url: `${publicUrl}/email/view/sample`,
  };
}

function communityScope(community: CommunityInfo): MergeScope['community'] {
  return { name: community.name, url: community.url, postal_address: community.postal_address ?? '' };
}

/** GET /v1/templates/merge-tags: the menu of the designer, with the tenant's attributes and community. */
export function mergeTagCatalogue(
  attributes: readonly AttributeInfo[],
  community: CommunityInfo,
  links: MessageLinks,
): MergeTagCatalogue {
  const scope = communityScope(community);
  const groups: MergeTagCatalogue['groups'] = [
    {
      label: 'Contact',
      tags: CONTACT_FIELDS.map((f) => ({ tag: `contact.${f.key}`, label: f.label, example: f.example })),
    },
  ];
  if (attributes.length > 0) {
    groups.push({
      label: 'Custom attributes',
      tags: attributes.map((a) => ({
        tag: `contact.${a.key}`,
        label: a.name,
        example: String(ATTRIBUTE_EXAMPLES[a.type]),
      })),
    });
  }
  groups.push(
    {
      label: 'Community',
      tags: COMMUNITY_FIELDS.map((f) => ({ tag: `community.${f.key}`, label: f.label, example: scope[f.key] })),
    },
    { label: 'Links', tags: LINKS.map((l) => ({ tag: l.key, label: l.label, example: links[l.key] })) },
  );
  return { groups };
}

/** Every merge tag the tenant's templates may use. */
export function knownMergeTags(attributes: readonly AttributeInfo[]): Set<string> {
  return new Set([
    ...CONTACT_FIELDS.map((f) => `contact.${f.key}`),
    ...attributes.map((a) => `contact.${a.key}`),
    ...COMMUNITY_FIELDS.map((f) => `community.${f.key}`),
    ...LINKS.map((l) => l.key),
  ]);
}

/**
 * The merge tags a version reads, as paths ('order.id', 'contact.first_name'), each once; fields that
 * do not parse are skipped (a saved version parses).
 */
export function variablesUsed(content: Pick<TemplateContent, 'subject' | 'preview_text' | 'mjml'>): string[] {
  const used = new Set<string>();
  for (const field of ['subject', 'preview_text', 'mjml'] as const) {
    try {
      for (const path of variablesOf(htmlLiquid, parseLiquid(htmlLiquid, content[field]))) used.add(path);
    } catch {
      continue;
    }
  }
  return [...used];
}

/** Liquid's own properties of a value (`{{ contact.first_name.size }}`). */
const VALUE_PROPERTIES = new Set(['size', 'first', 'last']);

function isKnown(path: string, known: ReadonlySet<string>): boolean {
  if (known.has(path) || path === 'contact' || path === 'community') return true;
  const cut = path.lastIndexOf('.');
  return cut > 0 && VALUE_PROPERTIES.has(path.slice(cut + 1)) && known.has(path.slice(0, cut));
}

export const MERGE_TAG_MESSAGES = {
  unknown: 'This merge tag is not known: it prints nothing. Pick merge tags from the menu.',
  noUnsubscribe: 'Marketing e-mails need an unsubscribe link: add {{ unsubscribe_url }} (the footer block has one).',
  noPostalAddressTag:
    'Marketing e-mails should show your postal address: add {{ community.postal_address }} (the footer block has it).',
  noPostalAddress: 'Your community has no postal address yet: add it in General Settings, or this prints nothing.',
} as const;

/**
 * Warnings about a version's merge tags: unknown tags per field, and for marketing e-mails a missing
 * unsubscribe link or postal address (as Mailchimp asks for both). Fields that do not parse are
 * skipped (their syntax errors are reported as errors).
 */
export function mergeTagWarnings(
  content: TemplateContent,
  known: ReadonlySet<string>,
  context: { kind: TemplateKind; hasPostalAddress: boolean },
): MergeTagWarning[] {
  const warnings: MergeTagWarning[] = [];
  const used = new Set<string>();
  for (const field of ['subject', 'preview_text', 'mjml'] as const) {
    let paths: string[];
    try {
      paths = variablesOf(htmlLiquid, parseLiquid(htmlLiquid, content[field]));
    } catch {
      continue;
    }
    for (const path of new Set(paths)) {
      used.add(path);
      if (!isKnown(path, known)) warnings.push({ tag: path, field, message: MERGE_TAG_MESSAGES.unknown });
    }
  }
  if (context.kind === 'marketing') {
    if (!used.has('unsubscribe_url')) {
      warnings.push({ tag: 'unsubscribe_url', field: 'mjml', message: MERGE_TAG_MESSAGES.noUnsubscribe });
    }
    if (!used.has('community.postal_address')) {
      warnings.push({ tag: 'community.postal_address', field: 'mjml', message: MERGE_TAG_MESSAGES.noPostalAddressTag });
    }
  }
  if (used.has('community.postal_address') && !context.hasPostalAddress) {
    warnings.push({ tag: 'community.postal_address', field: 'mjml', message: MERGE_TAG_MESSAGES.noPostalAddress });
  }
  return warnings;
}

/** The scope of one contact (campaigns build one per recipient: plain objects, no lookups). */
export function contactScope(
  contact: ContactInfo,
  attributes: readonly AttributeInfo[],
  community: CommunityInfo,
  links: MessageLinks,
): MergeScope {
  const fields: MergeScope['contact'] = {
    first_name: contact.first_name,
    last_name: contact.last_name,
    email: contact.email ?? '',
    wallet: contact.wallet ?? '',
  };
  for (const a of attributes) {
    const value = contact.attributes[a.id];
    fields[a.key] = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : null;
  }
  return { contact: fields, community: communityScope(community), ...links };
}

/** The scope of a preview without a contact: the catalogue's examples. */
export function sampleScope(
  attributes: readonly AttributeInfo[],
  community: CommunityInfo,
  links: MessageLinks,
): MergeScope {
  const fields: MergeScope['contact'] = Object.fromEntries(CONTACT_FIELDS.map((f) => [f.key, f.example]));
  for (const a of attributes) fields[a.key] = ATTRIBUTE_EXAMPLES[a.type];
  return { contact: fields, community: communityScope(community), ...links };
}
