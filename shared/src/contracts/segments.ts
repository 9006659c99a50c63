/**
 * Segments: a rule tree in react-querybuilder's JSON shape, the allowlist of fields and
 * operators it may use, and the segment resources. The console's rule builder offers exactly what
 * `segmentFields` lists; the gateway rejects anything else and compiles the rest to parameterised SQL.
 */
import * as z from 'zod/mini';
import { listQuery, page, text } from '@console/shared/contracts/core';
import { CONTACT_SOURCES, CONTACT_STATUSES, Contact, type AttributeType, type CustomAttribute } from './audience';

// ---------------------------------------------------------------------------------------------
// Operators and fields
// ---------------------------------------------------------------------------------------------

/** Operator names are react-querybuilder's, plus `lastDays` (within the last N days) for dates. */
export const SEGMENT_OPERATORS = [
  '=',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  'contains',
  'doesNotContain',
  'beginsWith',
  'endsWith',
  'in',
  'notIn',
  'between',
  'null',
  'notNull',
  'lastDays',
] as const;
export type SegmentOperator = (typeof SEGMENT_OPERATORS)[number];

/**
 * Field kinds: each has its own operators and value shape. `token` and `event` are the on-chain facts
 * of a contact's wallet (see ONCHAIN_FIELD_PREFIX).
 */
export const SEGMENT_FIELD_KINDS = [
  'text',
  'number',
  'date',
  'boolean',
  'wallet',
  'enum',
  'list',
  'token',
  'event',
] as const;
export type SegmentFieldKind = (typeof SEGMENT_FIELD_KINDS)[number];

export const OPERATORS_BY_KIND: Record<SegmentFieldKind, readonly SegmentOperator[]> = {
  text: ['=', '!=', 'contains', 'doesNotContain', 'beginsWith', 'endsWith', 'null', 'notNull'],
  wallet: ['=', '!=', 'beginsWith', 'null', 'notNull'],
  number: ['=', '!=', '<', '<=', '>', '>=', 'between', 'null', 'notNull'],
  date: ['<', '>', 'between', 'lastDays', 'null', 'notNull'],
  boolean: ['=', 'null', 'notNull'],
  enum: ['=', '!=', 'in', 'notIn'],
  /** Membership: `in` (member of any of the lists), `notIn` (member of none). */
  list: ['in', 'notIn'],
  /**
   * A watched token's balance: holds at least N (`>=`), less than N (`<`, its exact complement), or
   * between two amounts, both included (`between`). The value is the amount in token units as a decimal
   * string ("2.5"; `between`: two of them), converted exactly with the token's decimals.
   */
  token: ['>=', '<', 'between'],
  /**
   * A watched event: did it at least K times (`>=`) or fewer than K times (`<`, its exact complement).
   * The value is `[K]` (ever) or `[K, D]` (within the last D days): see `eventCountValue`.
   */
  event: ['>=', '<'],
};

/** Operators that take no value. */
export const VALUELESS_OPERATORS: readonly SegmentOperator[] = ['null', 'notNull'];

export interface SegmentField {
  /** Rule field name: a contact field, `list`, `attr.<key>` or an on-chain field (`chain.…`). */
  name: string;
  label: string;
  kind: SegmentFieldKind;
  /** For `enum` fields. */
  values?: readonly string[];
  /** For `token` fields: the token's symbol (null: none known) and decimals. */
  token?: { symbol: string | null; decimals: number };
}

/** Contact fields every segment may use, before the tenant's custom attributes. */
export const BASE_SEGMENT_FIELDS: readonly SegmentField[] = [
  { name: 'email', label: 'E-mail', kind: 'text' },
  { name: 'wallet', label: 'Wallet', kind: 'wallet' },
  { name: 'first_name', label: 'First name', kind: 'text' },
  { name: 'last_name', label: 'Last name', kind: 'text' },
  { name: 'status', label: 'Status', kind: 'enum', values: CONTACT_STATUSES },
  { name: 'source', label: 'Source', kind: 'enum', values: CONTACT_SOURCES },
  { name: 'list', label: 'List membership', kind: 'list' },
  { name: 'created_at', label: 'Created', kind: 'date' },
  { name: 'updated_at', label: 'Updated', kind: 'date' },
];

export const ATTRIBUTE_FIELD_PREFIX = 'attr.';

const KIND_OF_ATTRIBUTE: Record<AttributeType, SegmentFieldKind> = {
  text: 'text',
  number: 'number',
  date: 'date',
  boolean: 'boolean',
  wallet: 'wallet',
};

/**
 * On-chain fields, named by the watched contract's id (so they survive a rename):
 * - `chain.balance.<contract id>`: the contact's wallet's balance of the token (contracts keeping balances);
 * - `chain.event.<contract id>.<EventName>`: how often the wallet took part in the event;
 * - `chain.first_seen`: when the tenant's watched contracts first saw the wallet (a `date` field).
 * A contact without a wallet holds nothing, did no event and was never seen.
 */
export const ONCHAIN_FIELD_PREFIX = 'chain.';
export const ONCHAIN_BALANCE_PREFIX = `${ONCHAIN_FIELD_PREFIX}balance.`;
export const ONCHAIN_EVENT_PREFIX = `${ONCHAIN_FIELD_PREFIX}event.`;
export const ONCHAIN_FIRST_SEEN_FIELD = `${ONCHAIN_FIELD_PREFIX}first_seen`;

/** A watched contract as segment fields need it. */
export interface SegmentContract {
  id: string;
  name: string;
  /** The watched events' canonical signatures, `Transfer(address,address,uint256)`. */
  events: readonly string[];
  /** Set when the watcher keeps balances of this token. */
  token: { symbol: string | null; decimals: number } | null;
}

/** An event's name from its canonical signature. */
export function eventNameOf(signature: string): string {
  const open = signature.indexOf('(');
  return open < 0 ? signature : signature.slice(0, open);
}

/** The fields of the tenant's watched contracts (none without one). */
export function onchainSegmentFields(contracts: readonly SegmentContract[]): SegmentField[] {
  if (contracts.length === 0) return [];
  const fields: SegmentField[] = [];
  for (const c of contracts) {
    if (c.token) {
      fields.push({
        name: `${ONCHAIN_BALANCE_PREFIX}${c.id}`,
        label: `${c.name}: balance`,
        kind: 'token',
        token: c.token,
      });
    }
    for (const event of new Set(c.events.map(eventNameOf))) {
      fields.push({ name: `${ONCHAIN_EVENT_PREFIX}${c.id}.${event}`, label: `${c.name}: ${event}`, kind: 'event' });
    }
  }
  fields.push({ name: ONCHAIN_FIRST_SEEN_FIELD, label: 'First seen on chain', kind: 'date' });
  return fields;
}

/** The allowlist for one tenant: base fields, one field per custom attribute, then the on-chain fields. */
export function segmentFields(
  attributes: readonly Pick<CustomAttribute, 'key' | 'name' | 'type'>[],
  contracts: readonly SegmentContract[] = [],
): SegmentField[] {
  return [
    ...BASE_SEGMENT_FIELDS,
    ...attributes.map((a) => ({
      name: `${ATTRIBUTE_FIELD_PREFIX}${a.key}`,
      label: a.name,
      kind: KIND_OF_ATTRIBUTE[a.type],
    })),
    ...onchainSegmentFields(contracts),
  ];
}

/** GET /v1/segments/fields: the allowlist the rule builder offers (and the gateway compiles against). */
export const SegmentFieldList = z.object({
  records: z.array(
    z.object({
      name: z.string(),
      label: z.string(),
      kind: z.enum(SEGMENT_FIELD_KINDS),
      values: z.optional(z.array(z.string())),
      token: z.optional(z.object({ symbol: z.nullable(z.string()), decimals: z.int() })),
    }),
  ),
});
export type SegmentFieldList = z.infer<typeof SegmentFieldList>;

/** Longest period of an event rule and of `lastDays` (100 years). */
export const MAX_SEGMENT_DAYS = 36_500;
/** Largest K of an event rule. */
export const MAX_EVENT_TIMES = 1_000_000;

/**
 * An event rule's value: `[K]` (at least / fewer than K times, ever) or `[K, D]` (within the last D
 * days); K a whole number from 1 to MAX_EVENT_TIMES (`>=` 0 would be everyone), D from 1 to
 * MAX_SEGMENT_DAYS. Numbers may come as digit strings. Null when the value is not of that shape.
 */
export function eventCountValue(value: unknown): { times: number; days: number | null } | null {
  const items = Array.isArray(value) ? value : [];
  if (items.length < 1 || items.length > 2) return null;
  const whole = (v: unknown, max: number) => {
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
    return Number.isInteger(n) && n >= 1 && n <= max ? n : null;
  };
  const times = whole(items[0], MAX_EVENT_TIMES);
  const days = items.length === 2 ? whole(items[1], MAX_SEGMENT_DAYS) : null;
  if (times === null || (items.length === 2 && days === null)) return null;
  return { times, days };
}

// ---------------------------------------------------------------------------------------------
// Rule tree (react-querybuilder RuleGroupType, `id`s allowed and ignored)
// ---------------------------------------------------------------------------------------------

export const MAX_SEGMENT_DEPTH = 5;
export const MAX_SEGMENT_RULES = 50;

export const SegmentRuleValue = z.union([
  text(500),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.union([text(500), z.number()])).check(z.maxLength(200)),
]);
export type SegmentRuleValue = z.infer<typeof SegmentRuleValue>;

export const SegmentRule = z.object({
  id: z.optional(text(100)),
  field: text(200),
  operator: text(30),
  value: z.optional(SegmentRuleValue),
});
export type SegmentRule = z.infer<typeof SegmentRule>;

export interface SegmentGroup {
  id?: string | undefined;
  combinator: 'and' | 'or';
  not?: boolean | undefined;
  rules: (SegmentRule | SegmentGroup)[];
}

export const SegmentGroup: z.ZodMiniType<SegmentGroup> = z.object({
  id: z.optional(text(100)),
  combinator: z.enum(['and', 'or']),
  not: z.optional(z.boolean()),
  get rules() {
    return z.array(z.union([SegmentRule, SegmentGroup])).check(z.maxLength(MAX_SEGMENT_RULES));
  },
});

export function isSegmentGroup(node: SegmentRule | SegmentGroup): node is SegmentGroup {
  return 'rules' in node;
}

// ---------------------------------------------------------------------------------------------
// Resources
// ---------------------------------------------------------------------------------------------

export const Segment = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  rule: SegmentGroup,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Segment = z.infer<typeof Segment>;

/** POST /v1/segments, PATCH /v1/segments/{id}. Rule errors come back as `errors.rule`. */
export const SegmentInput = z.object({
  name: text(100, 'Use at most 100 characters.').check(z.trim(), z.minLength(1, 'Enter a name.')),
  description: z._default(text(500), ''),
  rule: SegmentGroup,
});
export type SegmentInput = z.infer<typeof SegmentInput>;

export const SEGMENT_SORT_FIELDS = ['created_at', 'name', 'updated_at'] as const;
export const SegmentListQuery = listQuery(SEGMENT_SORT_FIELDS, 'created_at');
export type SegmentListQuery = z.infer<typeof SegmentListQuery>;
export const SegmentPage = page(Segment);
export type SegmentPage = z.infer<typeof SegmentPage>;

/** POST /v1/segments/preview: the live count while editing and the first matches. */
export const SegmentPreviewBody = z.object({
  rule: SegmentGroup,
  limit: z._default(z.int().check(z.minimum(0), z.maximum(50)), 10),
});
export type SegmentPreviewBody = z.infer<typeof SegmentPreviewBody>;
export const SegmentPreview = z.object({ count: z.int(), records: z.array(Contact) });
export type SegmentPreview = z.infer<typeof SegmentPreview>;
