/**
 * Column mappings of CSV imports: checking one when an import starts, and turning it into the
 * column plan the importer reads rows with. Pure functions.
 */
import { IMPORT_FIELDS, type AttributeType, type ImportField, type ImportTarget } from '../../contracts';

export const ATTRIBUTE_TARGET_PREFIX = 'attr:';

const FIELD_LABELS: Record<ImportField, string> = {
  email: 'E-mail',
  wallet: 'Wallet',
  first_name: 'First name',
  last_name: 'Last name',
  status: 'Status',
};

export const MAPPING_MESSAGES = {
  identity: 'Map a column to E-mail or Wallet: every contact needs one of them.',
  unknown: (column: number, target: string) => `Column ${column}: "${target}" is not a field you can import into.`,
  twice: (label: string) => `${label} is mapped to more than one column: map each field once.`,
} as const;

export interface MappableAttribute {
  id: string;
  key: string;
  name: string;
  type: AttributeType;
}

/** Where each field is read from (0-based column indexes). */
export interface ColumnPlan {
  email: number | null;
  wallet: number | null;
  firstName: number | null;
  lastName: number | null;
  status: number | null;
  attributes: readonly (MappableAttribute & { column: number })[];
}

function isImportField(target: string): target is ImportField {
  return (IMPORT_FIELDS as readonly string[]).includes(target);
}

function attributeKey(target: string): string | null {
  return target.startsWith(ATTRIBUTE_TARGET_PREFIX) ? target.slice(ATTRIBUTE_TARGET_PREFIX.length) : null;
}

/** The messages for `errors.mapping` (none: the mapping is good). */
export function checkMapping(mapping: readonly ImportTarget[], attributes: readonly MappableAttribute[]): string[] {
  const byKey = new Map(attributes.map((a) => [a.key, a]));
  const messages: string[] = [];
  const seen = new Set<string>();
  mapping.forEach((target, index) => {
    if (target === null) return;
    const key = attributeKey(target);
    const attribute = key === null ? undefined : byKey.get(key);
    if (!isImportField(target) && !attribute) {
      messages.push(MAPPING_MESSAGES.unknown(index + 1, target));
      return;
    }
    if (seen.has(target)) {
      const label = isImportField(target) ? FIELD_LABELS[target] : `The attribute "${attribute?.name ?? target}"`;
      const message = MAPPING_MESSAGES.twice(label);
      if (!messages.includes(message)) messages.push(message);
    }
    seen.add(target);
  });
  if (!seen.has('email') && !seen.has('wallet')) messages.unshift(MAPPING_MESSAGES.identity);
  return messages;
}

/**
 * The column plan of a checked mapping, or the key of a mapped attribute that no longer exists
 * (deleted after the import was started).
 */
export function planColumns(
  mapping: readonly ImportTarget[],
  attributes: readonly MappableAttribute[],
): { ok: true; plan: ColumnPlan } | { ok: false; missingKey: string } {
  const byKey = new Map(attributes.map((a) => [a.key, a]));
  const plan: ColumnPlan & { attributes: (MappableAttribute & { column: number })[] } = {
    email: null,
    wallet: null,
    firstName: null,
    lastName: null,
    status: null,
    attributes: [],
  };
  for (const [column, target] of mapping.entries()) {
    if (target === null) continue;
    const key = attributeKey(target);
    if (key !== null) {
      const attribute = byKey.get(key);
      if (!attribute) return { ok: false, missingKey: key };
      plan.attributes.push({ ...attribute, column });
    } else if (target === 'email') plan.email = column;
    else if (target === 'wallet') plan.wallet = column;
    else if (target === 'first_name') plan.firstName = column;
    else if (target === 'last_name') plan.lastName = column;
    else if (target === 'status') plan.status = column;
  }
  return { ok: true, plan };
}
