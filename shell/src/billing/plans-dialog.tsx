import { useId } from 'react';
import { Spinner } from '@console/shared/ui';
import { Dialog } from '@console/shared/overlays';
import type { BillingPeriod, PriceRef } from '@console/shared/contracts';
import { CHANGE_PLAN_TEXT, CHANGE_PLAN_TITLE, CUSTOMER_SUCCESS_EMAIL } from './constants';
import { PeriodSwitch } from './period-switch';
import { PlanCard } from './plan-card';
import { usePlanCatalogue } from './queries';

export interface PlansDialogProps {
  open: boolean;
  onClose: () => void;
  period: BillingPeriod;
  onPeriod: (period: BillingPeriod) => void;
  /** Chosen pricing option per plan key (absent: the first). */
  options: Partial<Record<string, string>>;
  onOption: (planKey: string, optionKey: string) => void;
  currentPriceId: string | null;
  onSignUp: (choice: PriceRef) => void;
}

/** Change plan dialog of spec section 2: billing switch, four plan cards, 'Need something different?'. */
export function PlansDialog({
  open,
  onClose,
  period,
  onPeriod,
  options,
  onOption,
  currentPriceId,
  onSignUp,
}: PlansDialogProps) {
  const textId = useId();
  const catalogue = usePlanCatalogue(open);

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={CHANGE_PLAN_TITLE}
      showCloseButton
      size="xl"
      descriptionId={textId}
      testId="plans-dialog"
    >
      <p id={textId}>{CHANGE_PLAN_TEXT}</p>
      <div className="mt-5 flex justify-center">
        <PeriodSwitch value={period} onChange={onPeriod} />
      </div>
      <div className="mt-6">
        {catalogue.isPending ? (
          <div className="flex justify-center py-10">
            <Spinner className="h-8 w-8 text-brand-600" label="Loading plans" />
          </div>
        ) : catalogue.isError ? (
          <p role="alert" className="rounded-control bg-red-50 p-3 text-red-800">
            Could not load the plans. {catalogue.error.message}
          </p>
        ) : (
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {catalogue.data.map((plan) => (
              <PlanCard
                key={plan._id}
                plan={plan}
                period={period}
                optionKey={options[plan.key]}
                onOption={(optionKey) => onOption(plan.key, optionKey)}
                currentPriceId={currentPriceId}
                onSignUp={onSignUp}
              />
            ))}
          </div>
        )}
      </div>
      <p className="mt-6 text-center text-slate-600">
        Need something different?{' '}
        <a href={`mailto:${CUSTOMER_SUCCESS_EMAIL}`} className="font-medium text-brand-700 underline">
          Contact us
        </a>
      </p>
    </Dialog>
  );
}
