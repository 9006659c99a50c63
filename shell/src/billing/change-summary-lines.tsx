import type { ReactNode } from 'react';
import type { BillingPeriod, ChangeSummary } from '@console/shared/contracts';
import { formatDay, formatMoney, formatPercent } from '@console/shared/format';
import { perPeriod } from './plan-price';

function Line({ label, value, strong = false }: { label: ReactNode; value: string; strong?: boolean }) {
  return (
    <div className={`flex justify-between gap-4 py-2 ${strong ? 'font-semibold text-slate-900' : ''}`}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/** Subtotal, Tax (rate), the scheduled price when the change takes effect later, Amount due now. */
export function ChangeSummaryLines({ summary, period }: { summary: ChangeSummary; period: BillingPeriod }) {
  const { effectiveDate } = summary;
  return (
    <dl className="divide-y divide-slate-200" data-testid="change-summary">
      <Line label="Subtotal" value={formatMoney(summary.subtotal)} />
      <Line label={`Tax (${formatPercent(summary.taxRate)})`} value={formatMoney(summary.tax)} />
      {effectiveDate && (
        <div className="py-2">
          <div className="flex justify-between gap-4">
            <dt>
              What you&apos;ll pay starting: <time dateTime={effectiveDate}>{formatDay(effectiveDate)}</time>
            </dt>
            <dd>{perPeriod(summary.total, period)}</dd>
          </div>
          <p className="mt-1 text-xs text-slate-500">
            You&apos;ll stay on your current {summary.currentPlan} plan, with its quotas intact, until{' '}
            {formatDay(effectiveDate)}.
          </p>
        </div>
      )}
      <Line label="Amount due now" value={formatMoney(summary.dueNow)} strong />
    </dl>
  );
}
