/**
 * The `token` merge filter: an integer amount in a token's smallest unit (as contract events carry it,
 * a decimal string) written in whole tokens, exactly, with bigint: `{{ event.args.value | token: 18 }}`
 * turns 1500000000000000000 into 1.5. Trailing zeros of the fraction are left out; a value that is not
 * an integer is printed as it is.
 */
const MAX_DECIMALS = 77;

export function tokenAmount(value: unknown, decimals: unknown = 18): unknown {
  const raw = typeof value === 'bigint' ? value.toString() : typeof value === 'number' ? String(value) : value;
  const places = Number(decimals);
  if (typeof raw !== 'string' || !/^-?\d{1,100}$/.test(raw)) return value;
  if (!Number.isInteger(places) || places < 0 || places > MAX_DECIMALS) return value;
  const n = BigInt(raw);
  const negative = n < 0n;
  const digits = (negative ? -n : n).toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  const fraction = digits.slice(digits.length - places).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}
