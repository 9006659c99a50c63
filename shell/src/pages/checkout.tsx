import { useEffect, type ReactNode } from 'react';
import { Link, useParams } from '@console/shared/router';
import { useQuery } from '@tanstack/react-query';
import { Button } from '@console/shared/ui';
import { findPrice, PERIOD_LABELS, type Plan, type PriceRef } from '@console/shared/contracts';
import { cardPrice, perPeriod } from '../billing/plan-price';
import { checkoutKeys, fetchPublicPlans } from '../checkout/api';
import { CheckoutForm } from '../checkout/checkout-form';
import { SummaryList } from '../checkout/summary-list';

export const UNKNOWN_PRICE_TEXT = 'This price does not exist.';
const CATALOGUE_STALE_MS = 5 * 60_000;

function Frame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-3xl rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <p className="text-sm font-semibold text-brand-700">Community Console</p>
        <h1 className="mt-1 text-2xl font-semibold text-slate-900">{title}</h1>
        <div className="mt-6">{children}</div>
      </div>
    </div>
  );
}

/** The chosen plan: name, label, volume, period, price for the period and per month. */
export function ChosenPlan({ choice }: { choice: PriceRef }) {
  const { plan, option, period, variant } = choice;
  return (
    <section aria-labelledby="chosen-plan" className="rounded-lg bg-slate-50 p-5">
      <h2 id="chosen-plan" className="text-sm font-semibold tracking-wide text-slate-500 uppercase">
        Your plan
      </h2>
      <p className="mt-2">
        <span className="inline-block rounded-full bg-brand-50 px-3 py-1 text-xs font-semibold tracking-wide text-brand-700 uppercase">
          {plan.name}
        </span>
      </p>
      <p className="mt-2 font-medium text-slate-900">{plan.label}</p>
      <div className="mt-4">
        <SummaryList
          label="Order summary"
          rows={[
            ['E-mail volume', `${option.emails} e-mails`],
            ['Billing period', PERIOD_LABELS[period]],
            ['Price', perPeriod(variant.price, period)],
            ['Per month', `${cardPrice(option, period)} /month`],
          ]}
        />
      </div>
      {plan.features.length > 0 && (
        <ul aria-label="Features" className="mt-4 list-disc space-y-1 pl-5 text-sm text-slate-700">
          {plan.features.map((feature) => (
            <li key={feature}>{feature}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Where to go from an unknown price: each plan's first monthly price. */
function PlanLinks({ plans }: { plans: readonly Plan[] }) {
  return (
    <nav aria-label="Plans">
      <h2 className="text-sm font-semibold text-slate-900">Choose a plan</h2>
      <ul className="mt-2 space-y-2">
        {plans.flatMap((plan) => {
          const first = plan.pricing[0];
          if (!first) return [];
          return [
            <li key={plan.key}>
              <Link
                className="text-sm text-brand-700 underline"
                to={`/checkout/${encodeURIComponent(first.monthly.id)}`}
              >
                {plan.name} — {plan.label}, from {cardPrice(first, 'monthly')} /month
              </Link>
            </li>,
          ];
        })}
      </ul>
    </nav>
  );
}

/**
 * /checkout/:price_id (bare, no session): the chosen plan from the public catalogue and the new
 * owner's account; 'Continue to payment' stores the order and says to check the e-mail, which carries
 * the link to the payment provider's page (or, for an address that has an account, says so).
 */
export function CheckoutPage() {
  const { price_id = '' } = useParams();
  const catalogue = useQuery({
    queryKey: checkoutKeys.plans,
    queryFn: fetchPublicPlans,
    staleTime: CATALOGUE_STALE_MS,
    retry: false,
  });
  const choice = catalogue.data ? findPrice(catalogue.data, price_id) : null;

  useEffect(() => {
    document.title = choice ? `Subscribe to ${choice.plan.name} · Community Console` : 'Checkout · Community Console';
  }, [choice]);

  if (catalogue.isPending) {
    return (
      <Frame title="Start your subscription">
        <p role="status" className="text-sm text-slate-600">
          Loading the plans…
        </p>
      </Frame>
    );
  }
  if (catalogue.isError) {
    return (
      <Frame title="Start your subscription">
        <p role="alert" className="text-sm text-red-700">
          {catalogue.error.message}
        </p>
        <Button className="mt-4" onClick={() => void catalogue.refetch()}>
          Try again
        </Button>
      </Frame>
    );
  }
  if (!choice) {
    return (
      <Frame title="Start your subscription">
        <p role="alert" className="mb-6 text-sm text-red-700">
          {UNKNOWN_PRICE_TEXT}
        </p>
        <PlanLinks plans={catalogue.data} />
      </Frame>
    );
  }
  return (
    <Frame title={`Subscribe to ${choice.plan.name}`}>
      <div className="grid gap-8 md:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <ChosenPlan choice={choice} />
        <CheckoutForm key={price_id} priceId={price_id} />
      </div>
    </Frame>
  );
}
