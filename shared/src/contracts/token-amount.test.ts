import { eventCountValue, MAX_SEGMENT_DAYS } from './segments';
import { tokenAmountToUnits, unitsToTokenAmount } from './token-amount';

describe('tokenAmountToUnits', () => {
  it.each<[string, number, string]>([
    ['1.5', 18, '1500000000000000000'],
    ['1000.5', 18, '1000500000000000000000'],
    ['0.000000000000000001', 18, '1'],
    [' 42 ', 0, '42'],
    ['.5', 1, '5'],
    ['5.', 2, '500'],
    ['000.000', 6, '0'],
    ['0', 18, '0'],
    // Trailing zeros beyond the token's decimals are not more precision.
    ['2.500000', 1, '25'],
    // A uint256's largest value, whole.
    [
      '115792089237316195423570985008687907853269984665640564039457584007913129639935',
      0,
      '115792089237316195423570985008687907853269984665640564039457584007913129639935',
    ],
    // Beyond what a double holds exactly: converted on the text.
    ['9007199254740993.000000000000000001', 18, '9007199254740993000000000000000001'],
  ])('%s with %i decimals is %s', (amount, decimals, units) => {
    expect(tokenAmountToUnits(amount, decimals)).toEqual({ units, problem: null });
  });

  it.each<[string, number, string]>([
    ['', 18, 'format'],
    ['.', 18, 'format'],
    ['-1', 18, 'format'],
    ['1e3', 18, 'format'],
    ['1,5', 18, 'format'],
    ['0x10', 18, 'format'],
    ['1.0000000000000000001', 18, 'decimals'],
    ['1.5', 0, 'decimals'],
    ['1'.repeat(79), 0, 'size'],
    ['1'.repeat(70), 18, 'size'],
  ])('refuses %p with %i decimals (%s)', (amount, decimals, problem) => {
    expect(tokenAmountToUnits(amount, decimals)).toEqual({ units: null, problem });
  });
});

describe('eventCountValue', () => {
  it.each<[unknown, { times: number; days: number | null } | null]>([
    [[1], { times: 1, days: null }],
    [[3, 30], { times: 3, days: 30 }],
    [['2', ' 7 '], { times: 2, days: 7 }],
    [[1, MAX_SEGMENT_DAYS], { times: 1, days: MAX_SEGMENT_DAYS }],
    [[0], null],
    [[1, 0], null],
    [[1, MAX_SEGMENT_DAYS + 1], null],
    [[1.5], null],
    [[''], null],
    [[1, ''], null],
    [[], null],
    [[1, 2, 3], null],
    [3, null],
    ['3', null],
  ])('%p -> %p', (value, expected) => {
    expect(eventCountValue(value)).toEqual(expected);
  });
});

describe('unitsToTokenAmount', () => {
  test.each([
    ['5000000000000000000', 18, '5'],
    ['1500000000000000000', 18, '1.5'],
    ['1', 18, '0.000000000000000001'],
    ['0', 18, '0'],
    ['120', 0, '120'],
    ['00120', 2, '1.2'],
    [
      '115792089237316195423570985008687907853269984665640564039457584007913129639935',
      18,
      '115792089237316195423570985008687907853269984665640564039457.584007913129639935',
    ],
  ])('%s with %i decimals is %s', (units, decimals, amount) => {
    expect(unitsToTokenAmount(units, decimals)).toBe(amount);
    expect(tokenAmountToUnits(amount, decimals)).toEqual({ units: units.replace(/^0+(?=\d)/, ''), problem: null });
  });
});
