import { WALLET_PATTERN, type CustomAttribute, type ImportField, type ImportTarget } from '@console/shared/contracts';

/** A column target for a custom attribute. */
export const attributeTarget = (key: string): string => `attr:${key}`;

/** 'E-Mail Address ' -> 'emailaddress': case, accents, spaces and punctuation do not matter. */
export function compactHeader(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

/** Header spellings (compacted) that name each contact field, as Mailchimp and co. exports spell them. */
const FIELD_HEADERS: readonly (readonly [ImportField, readonly string[]])[] = [
  ['email', ['email', 'mail', 'emailaddress', 'mailaddress', 'emailid', 'useremail', 'contactemail']],
  [
    'wallet',
    ['wallet', 'address', 'walletaddress', 'ethaddress', 'ethereumaddress', 'evmaddress', 'publicaddress', 'eth'],
  ],
  ['first_name', ['firstname', 'first', 'givenname', 'forename', 'fname']],
  ['last_name', ['lastname', 'last', 'surname', 'familyname', 'lname']],
  ['status', ['status', 'subscription', 'subscriptionstatus', 'emailstatus', 'memberstatus']],
];

const FIELD_BY_HEADER = new Map<string, ImportField>(
  FIELD_HEADERS.flatMap(([field, spellings]) => spellings.map((spelling) => [spelling, field] as const)),
);

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Every non-empty sample of the column matches (and there is at least one). */
function valuesAll(samples: readonly string[], pattern: RegExp): boolean {
  const present = samples.map((s) => s.trim()).filter((s) => s !== '');
  return present.length > 0 && present.every((s) => pattern.test(s));
}

/**
 * Suggested targets for CSV columns, by column index (null: do not import). Pure.
 * 1. headers that name a contact field (email, e-mail, wallet address, given name, surname, ...);
 * 2. headers equal to an attribute's key or name once case, spacing and punctuation are ignored;
 * 3. columns whose sample values all look like wallets (0x + 40 hex) or e-mail addresses.
 * Each target is used at most once: the leftmost column wins.
 */
export function suggestMapping(
  headers: readonly string[],
  attributes: readonly Pick<CustomAttribute, 'key' | 'name'>[],
  rows: readonly (readonly string[])[] = [],
): ImportTarget[] {
  const mapping: ImportTarget[] = headers.map(() => null);
  const used = new Set<string>();
  const assign = (index: number, target: string) => {
    if (mapping[index] !== null || used.has(target)) return;
    mapping[index] = target;
    used.add(target);
  };
  const compact = headers.map(compactHeader);

  compact.forEach((header, index) => {
    const field = FIELD_BY_HEADER.get(header);
    if (field) assign(index, field);
  });

  compact.forEach((header, index) => {
    if (header === '') return;
    const attribute = attributes.find((a) => compactHeader(a.key) === header || compactHeader(a.name) === header);
    if (attribute) assign(index, attributeTarget(attribute.key));
  });

  headers.forEach((_, index) => {
    const samples = rows.map((row) => row[index] ?? '');
    if (valuesAll(samples, WALLET_PATTERN)) assign(index, 'wallet');
    else if (valuesAll(samples, EMAIL_SHAPE)) assign(index, 'email');
  });

  return mapping;
}

/** Set one column's target; a target already used by another column is taken from it. */
export function assignTarget(mapping: readonly ImportTarget[], index: number, target: ImportTarget): ImportTarget[] {
  return mapping.map((current, i) => {
    if (i === index) return target;
    return target !== null && current === target ? null : current;
  });
}

/** The import needs a way to identify contacts: a column mapped to e-mail or wallet. */
export function mapsIdentity(mapping: readonly ImportTarget[]): boolean {
  return mapping.includes('email') || mapping.includes('wallet');
}
