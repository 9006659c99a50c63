import { useState } from 'react';
import { ApiError } from '@console/shared/api';
import { notify } from '@console/shared/ui';
import { PAYMENT_FAILED_MESSAGE } from '@console/shared/contracts';
import { openBillingPortal } from './api';
import { PAYMENT_METHOD_WORDS } from './constants';

const CHANGE_FAILED_FALLBACK = 'Your plan could not be changed. Please try again.';
const at = PAYMENT_FAILED_MESSAGE.indexOf(PAYMENT_METHOD_WORDS);
const BEFORE = at < 0 ? `${PAYMENT_FAILED_MESSAGE} ` : PAYMENT_FAILED_MESSAGE.slice(0, at);
const AFTER = at < 0 ? '' : PAYMENT_FAILED_MESSAGE.slice(at + PAYMENT_METHOD_WORDS.length);

/** A failed payment (402): the spec's message, its 'payment method' words open the billing portal. */
function PaymentFailed() {
  const [leaving, setLeaving] = useState(false);
  const openPortal = async () => {
    setLeaving(true);
    try {
      await openBillingPortal(window.location.href);
    } catch (error) {
      setLeaving(false);
      notify.error(error instanceof Error ? error.message : 'Could not open the billing portal.');
    }
  };
  return (
    <p role="alert" className="mt-4 rounded-control bg-red-50 p-3 text-sm text-red-800">
      {BEFORE}
      <button
        type="button"
        onClick={() => void openPortal()}
        disabled={leaving}
        aria-busy={leaving || undefined}
        className="font-medium underline underline-offset-2 hover:text-red-900 focus-visible:outline-2 focus-visible:outline-red-600 disabled:cursor-wait"
      >
        {PAYMENT_METHOD_WORDS}
      </button>
      {AFTER}
    </p>
  );
}

/** Why the plan change failed: a failed payment, or any other error's message, as text. */
export function ChangeFailure({ error }: { error: Error }) {
  if (error instanceof ApiError && error.status === 402) return <PaymentFailed />;
  return (
    <p role="alert" className="mt-4 rounded-control bg-red-50 p-3 text-sm text-red-800">
      {error.message || CHANGE_FAILED_FALLBACK}
    </p>
  );
}
