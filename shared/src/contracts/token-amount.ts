/**
 * Token amounts as people write them ("1.5" of a token with 18 decimals) and as chains keep them (an
 * integer in the token's smallest unit, "1500000000000000000"). Converted on the decimal text itself,
 * never through a floating-point number, so every amount a token can hold is exact.
 */

/** A uint256 has at most 78 decimal digits. */
export const MAX_TOKEN_UNIT_DIGITS = 78;

const AMOUNT = /^(\d*)(?:\.(\d*))?$/;

/** Why an amount was refused, for the person who typed it. */
export type TokenAmountProblem = 'format' | 'decimals' | 'size';

/**
 * `amount` (digits, optionally a point and more digits; surrounding spaces ignored) in the token's
 * smallest unit, as a decimal string without leading zeros. `problem` when it is not a non-negative
 * decimal number, has more decimal places than the token, or does not fit a uint256's digits.
 */
export function tokenAmountToUnits(
  amount: string,
  decimals: number,
): { units: string; problem: null } | { units: null; problem: TokenAmountProblem } {
  const match = AMOUNT.exec(amount.trim());
  const whole = match?.[1] ?? '';
  const fraction = match?.[2] ?? '';
  if (!match || (whole === '' && fraction === '')) return { units: null, problem: 'format' };
  const significant = fraction.replace(/0+$/, '');
  if (significant.length > decimals) return { units: null, problem: 'decimals' };
  const units = (whole + significant.padEnd(decimals, '0')).replace(/^0+(?=\d)/, '');
  if (units.length > MAX_TOKEN_UNIT_DIGITS) return { units: null, problem: 'size' };
  return { units, problem: null };
}

/** The message for a refused amount of a token with `decimals` decimals. */
export function tokenAmountMessage(problem: TokenAmountProblem, decimals: number): string {
  switch (problem) {
    case 'format':
      return 'enter an amount such as 100 or 2.5.';
    case 'decimals':
      return decimals === 0
        ? 'this token has no decimal places: enter a whole number.'
        : `this token has ${decimals} decimal places: use at most ${decimals} after the point.`;
    case 'size':
      return 'this amount is larger than a token can hold.';
  }
}

/**
 * `units` (an integer in the token's smallest unit, as a decimal string) as people read it: with 18
 * decimals "1500000000000000000" is "1.5". Exact, on the text; no trailing zeros.
 */
export function unitsToTokenAmount(units: string, decimals: number): string {
  const digits = units.replace(/^0+(?=\d)/, '');
  if (decimals <= 0) return digits;
  const padded = digits.padStart(decimals + 1, '0');
  const fraction = padded.slice(-decimals).replace(/0+$/, '');
  const whole = padded.slice(0, -decimals);
  return fraction ? `${whole}.${fraction}` : whole;
}
