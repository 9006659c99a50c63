// The `token` merge filter: exact whole-token amounts from smallest-unit integers.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { tokenAmount } from './token-amount';

it('writes smallest-unit integers in whole tokens, exactly', () => {
  const rows: [unknown, unknown, unknown][] = [
    ['1500000000000000000', 18, '1.5'],
    ['1000000000000000000007', 18, '1000.000000000000000007'],
    ['7', 18, '0.000000000000000007'],
    [
      '115792089237316195423570985008687907853269984665640564039457584007913129639935',
      18,
      '115792089237316195423570985008687907853269984665640564039457.584007913129639935',
    ],
    ['-2500000', 6, '-2.5'],
    ['42', 0, '42'],
    ['1.5', 18, '1.5'],
    ['abc', 18, 'abc'],
    ['10', -1, '10'],
  ];
  for (const [value, decimals, expected] of rows) assert.equal(tokenAmount(value, decimals), expected, String(value));
});
