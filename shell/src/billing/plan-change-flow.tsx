import { useState } from 'react';
import { consoleStore, useConsole } from '@console/shared/session';
import type { BillingPeriod, PriceRef } from '@console/shared/contracts';
import { ConfirmPlanDialog } from './confirm-plan-dialog';
import { PlansDialog } from './plans-dialog';

interface Confirming {
  choice: PriceRef;
  /** Remounts the confirm dialog for each choice, so its summary loads afresh. */
  round: number;
}

/**
 * The plan picker and its confirmation, opened through the store's `openPlans()` and hosted once by
 * the shell. The picker's choices (period, volumes) survive a trip to the confirm dialog and back;
 * every opening starts from monthly and each plan's first option.
 */
export function PlanChangeFlow() {
  const plans = useConsole((s) => s.plans);
  const [wasOpen, setWasOpen] = useState(plans.open);
  const [period, setPeriod] = useState<BillingPeriod>('monthly');
  const [options, setOptions] = useState<Partial<Record<string, string>>>({});
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const [showConfirm, setShowConfirm] = useState(false);

  if (plans.open !== wasOpen) {
    setWasOpen(plans.open);
    if (plans.open) {
      setPeriod('monthly');
      setOptions({});
      setShowConfirm(false);
    }
  }

  return (
    <>
      <PlansDialog
        open={plans.open && !showConfirm}
        onClose={consoleStore.getState().closePlans}
        period={period}
        onPeriod={setPeriod}
        options={options}
        onOption={(planKey, optionKey) => setOptions((current) => ({ ...current, [planKey]: optionKey }))}
        currentPriceId={plans.currentPriceId}
        onSignUp={(choice) => {
          setConfirming((current) => ({ choice, round: (current?.round ?? 0) + 1 }));
          setShowConfirm(true);
        }}
      />
      {confirming && (
        <ConfirmPlanDialog
          key={confirming.round}
          open={plans.open && showConfirm}
          choice={confirming.choice}
          onBack={() => setShowConfirm(false)}
        />
      )}
    </>
  );
}
