import type { RuleGroupType, RuleType } from 'react-querybuilder';
import { isSegmentGroup, type SegmentGroup, type SegmentRule, type SegmentRuleValue } from '@console/shared/contracts';

/** A rule value as the contract takes it (react-querybuilder types values as any). */
function ruleValue(value: unknown): SegmentRuleValue | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return value;
  }
  if (Array.isArray(value)) {
    return value.filter((item): item is string | number => typeof item === 'string' || typeof item === 'number');
  }
  return undefined;
}

function toSegmentRule(rule: RuleType): SegmentRule {
  return { ...rule, value: ruleValue(rule.value) };
}

/**
 * react-querybuilder's query as the contract's SegmentGroup: the same JSON (ids and all; the gateway
 * ignores what it does not know), with values and the combinator typed.
 */
export function toSegmentGroup(group: RuleGroupType): SegmentGroup {
  return {
    ...group,
    combinator: group.combinator === 'or' ? 'or' : 'and',
    rules: group.rules.map((node) => ('rules' in node ? toSegmentGroup(node) : toSegmentRule(node))),
  };
}

/** A saved rule back into the builder. */
export function fromSegmentGroup(group: SegmentGroup): RuleGroupType {
  return {
    ...group,
    rules: group.rules.map((node) =>
      isSegmentGroup(node) ? fromSegmentGroup(node) : { ...node, value: node.value ?? '' },
    ),
  };
}

/** The live count line: '1 contact matches', '12,345 contacts match'. */
export function matchCountText(count: number): string {
  return count === 1 ? '1 contact matches' : `${count.toLocaleString('en-US')} contacts match`;
}
