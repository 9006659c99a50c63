import { useState } from 'react';
import { navigation } from '@console/shared/session';
import { Button, notify } from '@console/shared/ui';
import type { BillingOverview } from '@console/shared/contracts';
import { errorText, fetchPortalUrl } from './api';
import { BillingCard } from './billing-card';

export const PORTAL_ERROR = 'The billing portal could not be opened. Please try again.';

/** The card on file (with a warning when payments fail) and 'Manage payment method' (the provider's portal). */
export function PaymentMethodCard({ overview }: { overview: BillingOverview }) {
  const { paymentMethod, billing } = overview;
  const [busy, setBusy] = useState(false);

  const manage = async () => {
    setBusy(true);
    try {
      const url = await fetchPortalUrl(window.location.href);
      // Leaving the console: stay busy until the browser navigates.
      navigation.assign(url);
    } catch (error) {
      setBusy(false);
      notify.error(errorText(error, PORTAL_ERROR));
    }
  };

  return (
    <BillingCard
      title="Payment method"
      actions={
        billing && (
          <Button variant={paymentMethod?.failing ? 'primary' : 'secondary'} busy={busy} onClick={() => void manage()}>
            Manage payment method
          </Button>
        )
      }
    >
      {paymentMethod ? (
        <p className="font-medium text-slate-900">{paymentMethod.label}</p>
      ) : (
        <p className="text-slate-600">
          {billing ? 'No payment method on file.' : 'Your account manager handles payments.'}
        </p>
      )}
      {paymentMethod?.failing && (
        <div role="alert" className="mt-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-800">
          <p className="font-medium">Payments with this card fail.</p>
          {billing && <p>Update your payment method to keep your plan.</p>}
        </div>
      )}
    </BillingCard>
  );
}
