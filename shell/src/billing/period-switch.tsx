import { useId } from 'react';
import { BILLING_PERIODS, PERIOD_LABELS, type BillingPeriod } from '@console/shared/contracts';

export interface PeriodSwitchProps {
  value: BillingPeriod;
  onChange: (period: BillingPeriod) => void;
}

/** The billing switch: Monthly, 6 months, 1 year, as native radios (arrow keys move between them). */
export function PeriodSwitch({ value, onChange }: PeriodSwitchProps) {
  const name = useId();
  return (
    <div role="radiogroup" aria-label="Billing period" className="inline-flex rounded-full bg-slate-100 p-1">
      {BILLING_PERIODS.map((period) => (
        <label
          key={period}
          className={[
            'cursor-pointer rounded-full px-4 py-1.5 text-sm font-medium transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600',
            value === period ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900',
          ].join(' ')}
        >
          <input
            type="radio"
            name={name}
            value={period}
            checked={value === period}
            onChange={() => onChange(period)}
            className="sr-only"
          />
          {PERIOD_LABELS[period]}
        </label>
      ))}
    </div>
  );
}
