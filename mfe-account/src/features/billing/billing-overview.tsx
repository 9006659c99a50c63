import type { BillingOverview } from '@console/shared/contracts';
import { InvoiceHistory } from './invoice-history';
import { NextInvoiceCard } from './next-invoice-card';
import { PaymentMethodCard } from './payment-method-card';
import { PlanCard } from './plan-card';
import { ScheduledChangeNotice } from './scheduled-change';
import { UsageCard } from './usage-card';

/** The billing page's blocks for a loaded overview. */
export function BillingOverviewView({ overview }: { overview: BillingOverview }) {
  return (
    <div className="flex flex-col gap-6">
      {overview.scheduledChange && (
        <ScheduledChangeNotice change={overview.scheduledChange} currentPlan={overview.plan.name} />
      )}
      <div className="grid gap-6 md:grid-cols-2">
        <PlanCard overview={overview} />
        <UsageCard overview={overview} />
        <NextInvoiceCard overview={overview} />
        <PaymentMethodCard overview={overview} />
      </div>
      <InvoiceHistory invoices={overview.invoices} />
    </div>
  );
}
