import { useId } from 'react';

export interface ProgressBarProps {
  /** Current value between `min` and `max` (clamped). */
  value: number;
  min?: number;
  max?: number;
  /** Visible label above the bar; also the bar's accessible name. */
  label: string;
  /** Hide the label visually (it still names the bar). */
  hideLabel?: boolean;
  /** Text read out instead of the bare number (aria-valuetext), e.g. '42% (4,200 of 10,000 rows)'. */
  valueText?: string;
  /** Show the percentage next to the label (default true). */
  showValue?: boolean;
  tone?: 'brand' | 'success' | 'danger';
  className?: string;
}

const TONES = { brand: 'bg-brand-600', success: 'bg-emerald-600', danger: 'bg-red-600' } as const;

/** Clamp a value into [min, max] and give its whole percentage of the range. */
export function progressPercent(value: number, min = 0, max = 100): number {
  if (!Number.isFinite(value) || max <= min) return 0;
  const clamped = Math.min(max, Math.max(min, value));
  return Math.round(((clamped - min) / (max - min)) * 100);
}

/** A labelled determinate progress bar: role progressbar with aria-valuenow/min/max. */
export function ProgressBar({
  value,
  min = 0,
  max = 100,
  label,
  hideLabel = false,
  valueText,
  showValue = true,
  tone = 'brand',
  className,
}: ProgressBarProps) {
  const labelId = useId();
  const percent = progressPercent(value, min, max);
  const now = Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : min;
  return (
    <div className={className}>
      <div className={hideLabel ? 'sr-only' : 'mb-1 flex items-center justify-between gap-3 text-sm'}>
        <span id={labelId} className="font-medium text-slate-800">
          {label}
        </span>
        {showValue && !hideLabel && (
          <span aria-hidden="true" className="text-slate-600 tabular-nums">
            {percent}%
          </span>
        )}
      </div>
      <div
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuenow={now}
        aria-valuemin={min}
        aria-valuemax={max}
        aria-valuetext={valueText}
        className="h-2.5 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className={`h-full rounded-full transition-[width] duration-300 ${TONES[tone]}`}
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}
