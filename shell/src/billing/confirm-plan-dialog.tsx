import { useRef } from 'react';
import { Button, Spinner } from '@console/shared/ui';
import { Dialog } from '@console/shared/overlays';
import type { PriceRef } from '@console/shared/contracts';
import { ChangeFailure } from './change-failure';
import { ChangeSummaryLines } from './change-summary-lines';
import { MOVEMENT_ACTION, confirmPlanTitle } from './constants';
import { useChangePlan, useChangeSummary } from './queries';

export interface ConfirmPlanDialogProps {
  open: boolean;
  /** The price chosen on a plan card. */
  choice: PriceRef;
  /** Cancel, Escape or backdrop: back to the plan list. */
  onBack: () => void;
}

/**
 * Confirm plan dialog of spec section 2: loads the change summary when it opens, then
 * 'Pay & Upgrade' or 'Schedule Downgrade'. Mount it afresh for each choice (a `key`).
 */
export function ConfirmPlanDialog({ open, choice, onBack }: ConfirmPlanDialogProps) {
  const priceId = choice.variant.id;
  const summary = useChangeSummary(priceId, open);
  const change = useChangePlan();
  const running = useRef(false);
  const busy = change.isPending;

  const confirm = async () => {
    if (running.current) return;
    running.current = true;
    try {
      await change.mutateAsync(priceId);
    } catch {
      // Shown from change.error; the primary button stays for a retry.
    } finally {
      running.current = false;
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onBack}
      dismissible={!busy}
      title={summary.data ? confirmPlanTitle(summary.data) : `Change to ${choice.plan.name} Plan`}
      testId="confirm-plan-dialog"
      footer={
        <>
          {!busy && (
            <Button variant="secondary" onClick={onBack}>
              Cancel
            </Button>
          )}
          {summary.data && (
            <Button busy={busy} onClick={() => void confirm()}>
              {MOVEMENT_ACTION[summary.data.movement]}
            </Button>
          )}
        </>
      }
    >
      {summary.isPending ? (
        <div className="flex justify-center py-8">
          <Spinner className="h-8 w-8 text-brand-600" label="Loading the change summary" />
        </div>
      ) : summary.isError ? (
        <p role="alert" className="rounded-control bg-red-50 p-3 text-red-800">
          Could not load the change summary. {summary.error.message}
        </p>
      ) : (
        <ChangeSummaryLines summary={summary.data} period={choice.period} />
      )}
      {change.error && <ChangeFailure error={change.error} />}
    </Dialog>
  );
}
