import { useId } from 'react';
import { Button } from '@console/shared/ui';
import type { BillingPeriod, Plan, PriceRef } from '@console/shared/contracts';
import { CURRENT_PLAN } from './constants';
import { cardPrice } from './plan-price';

export interface PlanCardProps {
  plan: Plan;
  period: BillingPeriod;
  /** The chosen pricing option (e-mail volume); the first by default. */
  optionKey: string | undefined;
  onOption: (optionKey: string) => void;
  /** The tenant's current price id, when known: its Sign-up is disabled. */
  currentPriceId: string | null;
  onSignUp: (choice: PriceRef) => void;
}

/** One plan: name badge, label, price per month, e-mail volume, features, Sign-up. */
export function PlanCard({ plan, period, optionKey, onOption, currentPriceId, onSignUp }: PlanCardProps) {
  const nameId = useId();
  const volumeId = useId();
  const featuresId = useId();
  const noteId = useId();
  const option = plan.pricing.find((o) => o.key === optionKey) ?? plan.pricing[0];
  const variant = option?.[period];
  const current = variant !== undefined && variant.id === currentPriceId;

  return (
    <article
      aria-labelledby={nameId}
      className="flex flex-col rounded-panel border border-slate-200 p-5 shadow-sm"
      data-testid={`plan-card-${plan.key}`}
    >
      <h3 id={nameId}>
        <span className="inline-block rounded-full bg-brand-50 px-3 py-1 text-xs font-semibold tracking-wide text-brand-700 uppercase">
          {plan.name}
        </span>
      </h3>
      <p className="mt-3 font-medium text-slate-900">{plan.label}</p>
      {option && (
        <p className="mt-3">
          <span data-testid="plan-price" className="text-3xl font-bold text-slate-900">
            {cardPrice(option, period)}
          </span>
          <span className="text-sm text-slate-500"> /month</span>
        </p>
      )}
      <label htmlFor={volumeId} className="mt-4 block text-xs font-medium text-slate-600">
        E-mail volume
      </label>
      <select
        id={volumeId}
        value={option?.key ?? ''}
        onChange={(event) => onOption(event.target.value)}
        className="mt-1 block w-full rounded-control border border-slate-300 bg-white px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        {plan.pricing.map((o) => (
          <option key={o.key} value={o.key}>
            {o.emails} e-mails
          </option>
        ))}
      </select>
      <p id={featuresId} className="mt-4 text-xs font-semibold tracking-wide text-slate-500 uppercase">
        Features
      </p>
      <ul aria-labelledby={featuresId} className="mt-2 flex-1 list-disc space-y-1 pl-5 text-sm">
        {plan.features.map((feature) => (
          <li key={feature}>{feature}</li>
        ))}
      </ul>
      <Button
        className="mt-5 w-full"
        disabled={variant === undefined || current}
        aria-describedby={current ? noteId : undefined}
        onClick={() => option && variant && onSignUp({ plan, option, period, variant })}
      >
        Sign-up
      </Button>
      {current && (
        <p id={noteId} className="mt-2 text-center text-xs text-slate-500">
          {CURRENT_PLAN}
        </p>
      )}
    </article>
  );
}
