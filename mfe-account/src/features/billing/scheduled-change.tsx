import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, notify } from '@console/shared/ui';
import { ConfirmDialog } from '@console/shared/overlays';
import { PERIOD_LABELS, type BillingOverview } from '@console/shared/contracts';
import { cancelScheduledChange, errorText, refetchBilling } from './api';
import { formatDay } from '@console/shared/format';

type ScheduledChange = NonNullable<BillingOverview['scheduledChange']>;

export const KEPT_MESSAGE = 'Your current plan stays. The scheduled change was cancelled.';

/** 'Your plan changes to {plan} ({period}) on {date}.' with 'Keep my current plan' (confirmed, then DELETE). */
export function ScheduledChangeNotice({ change, currentPlan }: { change: ScheduledChange; currentPlan: string }) {
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const date = formatDay(change.effectiveDate);
  const target = `${change.plan} (${PERIOD_LABELS[change.period]})`;

  const keep = async () => {
    try {
      const result = await cancelScheduledChange();
      notify.success(result.message || KEPT_MESSAGE);
      // Stay busy until the page shows the kept plan; the notice then goes away with the dialog.
      await refetchBilling(client);
      setConfirming(false);
    } catch (error) {
      setConfirming(false);
      notify.error(errorText(error, 'The scheduled change could not be cancelled. Please try again.'));
    }
  };

  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-300 bg-amber-50 px-5 py-4 text-sm text-amber-950">
      <p>
        Your plan changes to {target} on <time dateTime={change.effectiveDate}>{date}</time>.
      </p>
      <Button variant="secondary" onClick={() => setConfirming(true)}>
        Keep my current plan
      </Button>
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title="Keep your current plan?"
        cancelText="Go back"
        onConfirm={keep}
      >
        <p>
          The change to {target} on {date} is cancelled and you stay on {currentPlan}, with the same price and e-mail
          volume.
        </p>
      </ConfirmDialog>
    </div>
  );
}
