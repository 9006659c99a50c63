import { Button } from '@console/shared/ui';
import { PERIOD_LABELS, type BillingOverview } from '@console/shared/contracts';
import { BillingCard } from './billing-card';
import { formatMoney } from '@console/shared/format';
import { continueUpgrade } from '@console/shared/session';

/**
 * The current plan: name, label, period and what it costs; 'Change plan' continues the shared upgrade
 * flow (spec section 4: plan picker with a billing customer, marking the current price, else 'Contact
 * your account manager'). The overview has no price
 * amount, so the price is the next invoice's, unless a scheduled change makes that the new plan's.
 */
export function PlanCard({ overview }: { overview: BillingOverview }) {
  const { plan, period, nextInvoice, scheduledChange } = overview;
  const price = scheduledChange === null && period !== null ? (nextInvoice?.amount ?? null) : null;
  return (
    <BillingCard
      title="Current plan"
      actions={
        <Button variant="primary" onClick={() => continueUpgrade(overview, { currentPriceId: overview.priceId })}>
          Change plan
        </Button>
      }
    >
      <p className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span className="text-xl font-semibold text-slate-900">{plan.name}</span>
        <span className="text-slate-600">{plan.label}</span>
      </p>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        <dt className="text-slate-500">Billing period</dt>
        <dd>{period ? PERIOD_LABELS[period] : 'No active subscription'}</dd>
        {price !== null && (
          <>
            <dt className="text-slate-500">Price</dt>
            <dd className="tabular-nums">{formatMoney(price)} per billing period</dd>
          </>
        )}
      </dl>
    </BillingCard>
  );
}
