import { useId } from 'react';
import { MAX_SEGMENT_DAYS, tokenAmountToUnits, type SegmentRuleValue } from '@console/shared/contracts';
import { INPUT_CLASS } from './input-class';
import { asText, numberOf } from './value-helpers';

type Scalar = string | number;

/** An amount as typed: a decimal string, never a number (a token's amounts need not fit a double). */
function AmountInput({
  label,
  unitId,
  decimals,
  value,
  onChange,
  disabled,
}: {
  label: string;
  unitId: string;
  /** Null: not known (a contract no longer watched): not checked here. */
  decimals: number | null;
  value: string;
  onChange: (value: string) => void;
  disabled: boolean | undefined;
}) {
  const invalid = decimals !== null && value.trim() !== '' && tokenAmountToUnits(value, decimals).problem !== null;
  return (
    <input
      type="text"
      inputMode={decimals === 0 ? 'numeric' : 'decimal'}
      autoComplete="off"
      aria-label={label}
      aria-describedby={unitId}
      aria-invalid={invalid || undefined}
      placeholder={decimals === 0 ? '0' : '0.0'}
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value)}
      className={`${INPUT_CLASS} w-36 aria-[invalid=true]:ring-red-600`}
    />
  );
}

/**
 * "Holds at least N" and "holds between": the amount in token units as the user thinks of them, followed by
 * the token's symbol; the gateway converts it exactly with the token's decimals.
 */
export function AmountEditor({
  label,
  token,
  range,
  value,
  onChange,
  disabled,
}: {
  label: string;
  token: { symbol: string | null; decimals: number } | null;
  range: boolean;
  value: unknown;
  onChange: (value: SegmentRuleValue) => void;
  disabled: boolean | undefined;
}) {
  const unitId = useId();
  const unit = (
    <span id={unitId} className="text-sm text-slate-600">
      {token?.symbol ?? 'tokens'}
    </span>
  );
  if (!range) {
    return (
      <span className="inline-flex items-center gap-2">
        <AmountInput
          label={`${label} amount`}
          unitId={unitId}
          decimals={token?.decimals ?? null}
          value={asText(value)}
          onChange={onChange}
          disabled={disabled}
        />
        {unit}
      </span>
    );
  }
  const items: unknown[] = Array.isArray(value) ? value : [];
  const [from, to] = [asText(items[0]), asText(items[1])];
  return (
    <span className="inline-flex items-center gap-2">
      <AmountInput
        label={`${label} from`}
        unitId={unitId}
        decimals={token?.decimals ?? null}
        value={from}
        onChange={(next) => onChange([next, to])}
        disabled={disabled}
      />
      <span className="text-sm text-slate-500">and</span>
      <AmountInput
        label={`${label} to`}
        unitId={unitId}
        decimals={token?.decimals ?? null}
        value={to}
        onChange={(next) => onChange([from, next])}
        disabled={disabled}
      />
      {unit}
    </span>
  );
}

/** Days offered when a period is first chosen. */
const DEFAULT_PERIOD_DAYS = 30;

/**
 * "Did the event at least K times, ever or within the last D days": the value is `[K]` or `[K, D]`
 * (the contract's eventCountValue).
 */
export function EventCountEditor({
  label,
  value,
  onChange,
  disabled,
}: {
  label: string;
  value: unknown;
  onChange: (value: SegmentRuleValue) => void;
  disabled: boolean | undefined;
}) {
  const items: unknown[] = Array.isArray(value) ? value : [];
  const times: Scalar = typeof items[0] === 'number' ? items[0] : asText(items[0]);
  const days: Scalar | null = items.length > 1 ? (typeof items[1] === 'number' ? items[1] : asText(items[1])) : null;
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <input
        type="number"
        min={1}
        step={1}
        aria-label={`${label}: number of times`}
        value={asText(times)}
        disabled={disabled}
        onChange={(event) => {
          const next = numberOf(event);
          onChange(days === null ? [next] : [next, days]);
        }}
        className={`${INPUT_CLASS} w-24`}
      />
      <span className="text-sm text-slate-500">{times === 1 ? 'time' : 'times'}</span>
      <select
        aria-label={`${label}: period`}
        value={days === null ? 'ever' : 'days'}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value === 'ever' ? [times] : [times, DEFAULT_PERIOD_DAYS])}
        className={`${INPUT_CLASS} pr-8`}
      >
        <option value="ever">ever</option>
        <option value="days">in the last</option>
      </select>
      {days !== null && (
        <>
          <input
            type="number"
            min={1}
            max={MAX_SEGMENT_DAYS}
            step={1}
            aria-label={`${label}: number of days`}
            value={asText(days)}
            disabled={disabled}
            onChange={(event) => onChange([times, numberOf(event)])}
            className={`${INPUT_CLASS} w-24`}
          />
          <span className="text-sm text-slate-500">days</span>
        </>
      )}
    </span>
  );
}
