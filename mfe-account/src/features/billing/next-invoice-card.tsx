import type { BillingOverview } from '@console/shared/contracts';
import { BillingCard } from './billing-card';
import { formatDay, formatMoney, formatPercent } from '@console/shared/format';

/** The next invoice: amount (with the tax rate it includes) and date. */
export function NextInvoiceCard({ overview }: { overview: BillingOverview }) {
  const { nextInvoice, taxRate } = overview;
  return (
    <BillingCard title="Next invoice">
      {nextInvoice ? (
        <>
          <p className="flex flex-wrap items-baseline gap-x-2">
            <span className="text-xl font-semibold text-slate-900 tabular-nums">{formatMoney(nextInvoice.amount)}</span>
            {taxRate > 0 && <span className="text-slate-500">incl. {formatPercent(taxRate)} tax</span>}
          </p>
          <p className="mt-1 text-slate-600">
            On <time dateTime={nextInvoice.date}>{formatDay(nextInvoice.date)}</time>
          </p>
        </>
      ) : (
        <p className="text-slate-600">No upcoming invoice.</p>
      )}
    </BillingCard>
  );
}
