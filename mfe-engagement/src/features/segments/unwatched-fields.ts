import {
  isSegmentGroup,
  ONCHAIN_BALANCE_PREFIX,
  ONCHAIN_EVENT_PREFIX,
  ONCHAIN_FIELD_PREFIX,
  ONCHAIN_MESSAGES,
  type SegmentField,
  type SegmentGroup,
} from '@console/shared/contracts';

/** How a field of a contract no longer watched reads in the builder. */
export const UNWATCHED_LABEL = ONCHAIN_MESSAGES.deleted.replace(/\.$/, '');

function onchainFieldsOf(group: SegmentGroup, into: Set<string>): Set<string> {
  for (const node of group.rules) {
    if (isSegmentGroup(node)) onchainFieldsOf(node, into);
    else if (node.field.startsWith(ONCHAIN_FIELD_PREFIX)) into.add(node.field);
  }
  return into;
}

/**
 * The builder's fields for a saved rule: the tenant's fields, plus one "Contract no longer watched" field
 * for each on-chain field of the rule the tenant no longer has (a contract deleted since), so the rule
 * shows as it was saved, with what became of it, instead of under another field. The gateway refuses to
 * save it and says so; in the saved segment it matches nobody. Pure.
 */
export function withUnwatchedFields(fields: readonly SegmentField[], rule: SegmentGroup | null): SegmentField[] {
  if (!rule) return [...fields];
  const known = new Set(fields.map((f) => f.name));
  const gone = [...onchainFieldsOf(rule, new Set())].filter((name) => !known.has(name));
  return [
    ...fields,
    ...gone.map((name): SegmentField => ({
      name,
      label: UNWATCHED_LABEL,
      kind: name.startsWith(ONCHAIN_BALANCE_PREFIX)
        ? 'token'
        : name.startsWith(ONCHAIN_EVENT_PREFIX)
          ? 'event'
          : 'date',
    })),
  ];
}
