import { Link, useParams } from 'react-router-dom';
import { AuthCard } from './auth-card';

/**
 * /checkout/:price_id and /checkout/success. The checkout itself belongs to the billing issue;
 * until then these pages say so plainly instead of pretending to take a payment.
 */
export function CheckoutPage() {
  const { price_id = '' } = useParams();
  return (
    <AuthCard title="Start your subscription">
      <p className="text-sm text-slate-700">
        Online checkout for price <code className="rounded bg-slate-100 px-1">{price_id}</code> is not open yet. Please
        contact us to subscribe.
      </p>
      <Link className="mt-6 inline-block text-sm text-brand-700 underline" to="/login">
        Sign in
      </Link>
    </AuthCard>
  );
}

export function CheckoutSuccessPage() {
  return (
    <section>
      <h1 className="text-2xl font-semibold">Thank you</h1>
      <p className="mt-2 text-slate-700">Your subscription is active.</p>
      <Link className="mt-4 inline-block text-brand-700 underline" to="/">
        Go to the overview
      </Link>
    </section>
  );
}
