// The rule of which merge variables a transactional message must give, as a table.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callerVariables, missingVariables } from './variables';

describe('callerVariables', () => {
  const cases: [string[], string[]][] = [
    [
      ['order.id', 'amount'],
      ['amount', 'order.id'],
    ],
    [['community.name', 'contact.first_name', 'unsubscribe_url', 'view_in_browser_url'], []],
    [
      ['items.size', 'items.first.name'],
      ['items', 'items.first.name'],
    ],
    [['amount', 'amount'], ['amount']],
  ];
  for (const [paths, expected] of cases)
    it(`${paths.join(', ')} -> ${expected.join(', ') || 'none'}`, () =>
      assert.deepEqual(callerVariables(paths), expected));
});

describe('missingVariables', () => {
  const cases: [Record<string, unknown>, string[]][] = [
    [{ order: { id: 'A' }, amount: 0 }, []],
    [{ order: {}, amount: '1' }, ['order.id']],
    [{ order: 'A', amount: null }, ['order.id', 'amount']],
    [{}, ['order.id', 'amount']],
  ];
  for (const [data, expected] of cases)
    it(`${JSON.stringify(data)} lacks ${expected.join(', ') || 'nothing'}`, () =>
      assert.deepEqual(missingVariables(['order.id', 'amount'], data), expected));
});
