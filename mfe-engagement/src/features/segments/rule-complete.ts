import { isSegmentGroup, type SegmentField, type SegmentGroup, type SegmentRule } from '@console/shared/contracts';
import { valueEditorKind } from './operators';

const blank = (value: unknown) => value === undefined || value === null || value === '';

function ruleComplete(rule: SegmentRule, fields: ReadonlyMap<string, SegmentField>): boolean {
  const field = fields.get(rule.field);
  if (!field) return true; // unknown to the console: let the gateway say what is wrong
  const { value } = rule;
  switch (valueEditorKind(field.kind, rule.operator)) {
    case 'none':
      return true;
    case 'multiselect':
      return Array.isArray(value) ? value.length > 0 : !blank(value);
    case 'numberRange':
    case 'dateRange':
    case 'amountRange':
      return Array.isArray(value) && value.length === 2 && !value.some(blank);
    case 'eventCount':
      return Array.isArray(value) && value.length > 0 && !value.some(blank);
    default:
      return typeof value === 'string' ? value.trim() !== '' : !blank(value);
  }
}

/**
 * Every rule has the value its operator needs (a text, one or more choices, both ends of a range).
 * The live count waits for that, instead of flashing an error while a rule is being filled in. Pure.
 */
export function isRuleComplete(group: SegmentGroup, fields: ReadonlyMap<string, SegmentField>): boolean {
  return group.rules.every((node) =>
    isSegmentGroup(node) ? isRuleComplete(node, fields) : ruleComplete(node, fields),
  );
}
