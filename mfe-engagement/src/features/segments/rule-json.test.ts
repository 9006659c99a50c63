import type { RuleGroupType } from 'react-querybuilder';
import type { SegmentGroup } from '@console/shared/contracts';
import { fromSegmentGroup, matchCountText, toSegmentGroup } from './rule-json';

const query: RuleGroupType = {
  id: 'g0',
  combinator: 'and',
  not: false,
  rules: [
    { id: 'r1', field: 'status', operator: 'in', value: ['subscribed', 'bounced'] },
    {
      id: 'g1',
      combinator: 'or',
      rules: [
        { id: 'r2', field: 'attr.score', operator: 'between', value: [1, ''] },
        { id: 'r3', field: 'email', operator: 'null', value: '' },
        { id: 'r4', field: 'attr.vip', operator: '=', value: true },
      ],
    },
  ],
};

test('the builder JSON goes to the gateway as it is', () => {
  expect(toSegmentGroup(query)).toEqual(query);
});

test('odd values are dropped, not sent', () => {
  const odd: RuleGroupType = {
    combinator: 'xor',
    rules: [{ field: 'email', operator: '=', value: { nested: true } }],
  };
  expect(toSegmentGroup(odd)).toEqual({ combinator: 'and', rules: [{ field: 'email', operator: '=' }] });
});

test('a saved rule loads into the builder', () => {
  const saved: SegmentGroup = { combinator: 'or', rules: [{ field: 'email', operator: 'notNull' }] };
  expect(fromSegmentGroup(saved)).toEqual({
    combinator: 'or',
    rules: [{ field: 'email', operator: 'notNull', value: '' }],
  });
  expect(fromSegmentGroup(toSegmentGroup(query))).toEqual(query);
});

test.each([
  [0, '0 contacts match'],
  [1, '1 contact matches'],
  [12345, '12,345 contacts match'],
])('%p -> %p', (count, text) => expect(matchCountText(count)).toBe(text));
