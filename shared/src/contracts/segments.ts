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

/** Field kinds: each has its own operators and value shape. */
export type SegmentFieldKind = 'text' | 'number' | 'date' | 'boolean' | 'wallet' | 'enum' | 'list';

export const OPERATORS_BY_KIND: Record<SegmentFieldKind, readonly SegmentOperator[]> = {
  text: ['=', '!=', 'contains', 'doesNotContain', 'beginsWith', 'endsWith', 'null', 'notNull'],
  wallet: ['=', '!=', 'beginsWith', 'null', 'notNull'],
  number: ['=', '!=', '<', '<=', '>', '>=', 'between', 'null', 'notNull'],
  date: ['<', '>', 'between', 'lastDays', 'null', 'notNull'],
  boolean: ['=', 'null', 'notNull'],
  enum: ['=', '!=', 'in', 'notIn'],
  /** Membership: `in` (member of any of the lists), `notIn` (member of none). */
  list: ['in', 'notIn'],
};

/** Operators that take no value. */
export const VALUELESS_OPERATORS: readonly SegmentOperator[] = ['null', 'notNull'];

export interface SegmentField {
  /** Rule field name: a contact field, `list`, or `attr.<key>`. */
  name: string;
  label: string;
  kind: SegmentFieldKind;
  /** For `enum` fields. */
  values?: readonly string[];
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

/** The allowlist for one tenant: base fields plus one field per custom attribute. */
export function segmentFields(attributes: readonly Pick<CustomAttribute, 'key' | 'name' | 'type'>[]): SegmentField[] {
  return [
    ...BASE_SEGMENT_FIELDS,
    ...attributes.map((a) => ({
      name: `${ATTRIBUTE_FIELD_PREFIX}${a.key}`,
      label: a.name,
      kind: KIND_OF_ATTRIBUTE[a.type],
    })),
  ];
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
  field: text(60),
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
