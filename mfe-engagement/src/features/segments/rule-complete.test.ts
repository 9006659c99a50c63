import { segmentFields, type SegmentGroup, type SegmentRule } from '@console/shared/contracts';
import { isRuleComplete } from './rule-complete';

const fields = new Map(
  segmentFields([{ key: 'score', name: 'Score', type: 'number' }]).map((field) => [field.name, field]),
);
const group = (...rules: (SegmentRule | SegmentGroup)[]): SegmentGroup => ({ combinator: 'and', rules });

test.each<[string, SegmentGroup, boolean]>([
  ['no rules', group(), true],
  ['text with a value', group({ field: 'email', operator: 'contains', value: 'dao' }), true],
  ['text without a value', group({ field: 'email', operator: 'contains', value: '' }), false],
  ['text of spaces', group({ field: 'first_name', operator: '=', value: '  ' }), false],
  ['valueless operator', group({ field: 'email', operator: 'null', value: '' }), true],
  ['enum choice', group({ field: 'status', operator: '=', value: 'bounced' }), true],
  ['no list chosen', group({ field: 'list', operator: 'in', value: [] }), false],
  ['a list chosen', group({ field: 'list', operator: 'notIn', value: ['l1'] }), true],
  ['number zero', group({ field: 'attr.score', operator: '>', value: 0 }), true],
  ['half a range', group({ field: 'attr.score', operator: 'between', value: [1, ''] }), false],
  ['a range', group({ field: 'attr.score', operator: 'between', value: [1, 5] }), true],
  ['last N days', group({ field: 'created_at', operator: 'lastDays', value: 30 }), true],
  ['nested incomplete', group(group({ field: 'email', operator: '=', value: '' })), false],
  ['unknown field goes to the gateway', group({ field: 'attr.gone', operator: '=', value: '' }), true],
])('%s -> %p', (_name, rule, complete) => {
  expect(isRuleComplete(rule, fields)).toBe(complete);
});
