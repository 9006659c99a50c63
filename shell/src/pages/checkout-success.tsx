import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from '@console/shared/router';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '@console/shared/api';
import { formatDay, formatMoney } from '@console/shared/format';
import { PERIOD_LABELS, type CheckoutSummary } from '@console/shared/contracts';
import { checkoutKeys, checkoutSecret, completeCheckout } from '../checkout/api';
import { SummaryList } from '../checkout/summary-list';

export const SIGN_IN_TO_CONTINUE = 'Sign in to continue.';
export const NO_CHECKOUT = 'There is no checkout to confirm here.';
export const NOT_PAID = 'Your payment has not been completed, so your subscription has not started.';

function Notice({ title, text }: { title: string; text: string }) {
  return (
    <section className="mx-auto max-w-lg">
      <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
      <p role="alert" className="mt-3 text-slate-700">
        {text}
      </p>
      <Link className="mt-6 inline-block text-brand-700 underline" to="/login">
        Sign in
      </Link>
    </section>
  );
}

function Welcome({ summary }: { summary: CheckoutSummary }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="mx-auto max-w-lg">
      <h1 ref={heading} tabIndex={-1} className="text-2xl font-semibold text-slate-900 focus:outline-none">
        Welcome to {summary.plan.name}!
      </h1>
      <p role="status" className="mt-2 text-slate-700">
        Your subscription for {summary.tenant_name} is active and you are signed in.
      </p>
      <div className="mt-6 rounded-lg border border-slate-200 bg-white p-5">
        <p className="font-medium text-slate-900">{summary.plan.label}</p>
        <SummaryList
          label="Your subscription"
          rows={[
            ['Plan', summary.plan.name],
            ['E-mail volume', `${summary.emails} e-mails`],
            ['Billing period', PERIOD_LABELS[summary.period]],
            ['Paid', formatMoney(summary.amount)],
            ['Renews on', formatDay(summary.period_end)],
          ]}
        />
      </div>
      <Link
        className="mt-6 inline-block rounded-control bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        to="/"
      >
        Go to your console
      </Link>
    </section>
  );
}

/**
 * /checkout/success?session=<id> (main layout, no session needed): trades the paid checkout for a
 * session once (with the secret this browser kept when it started the checkout), signs the new owner in
 * and welcomes them. The query runs once per checkout (StrictMode and remounts share it).
 */
export function CheckoutSuccessPage() {
  const [params] = useSearchParams();
  const sessionId = params.get('session') ?? '';
  const secret = sessionId ? checkoutSecret(sessionId) : null;
  const result = useQuery({
    queryKey: checkoutKeys.complete(sessionId),
    queryFn: () => completeCheckout(sessionId, secret ?? ''),
    enabled: Boolean(sessionId && secret),
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });

  if (!sessionId) return <Notice title="Checkout" text={`${NO_CHECKOUT} ${SIGN_IN_TO_CONTINUE}`} />;
  if (result.data) return <Welcome summary={result.data} />;
  // No secret in this browser (another one, or already used): the account exists once paid.
  if (!secret) return <Notice title="Checkout" text={SIGN_IN_TO_CONTINUE} />;
  if (result.isError) {
    const unpaid = result.error instanceof ApiError && result.error.status === 409;
    return <Notice title="Checkout" text={unpaid ? `${NOT_PAID} ${SIGN_IN_TO_CONTINUE}` : SIGN_IN_TO_CONTINUE} />;
  }
  return (
    <p role="status" className="text-slate-600">
      Confirming your subscription…
    </p>
  );
}
