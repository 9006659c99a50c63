import type { ChangeSummary } from '@console/shared/contracts';

/** Texts of the change plan and confirm plan dialogs (spec sections 2, 4 and 8). */
export const CHANGE_PLAN_TITLE = 'Change your plan';
export const CHANGE_PLAN_TEXT = 'Choose the plan that best fits your needs.';
export const PLAN_UPDATED = 'Plan updated!';
export const CURRENT_PLAN = 'Current plan';

/**
 * The provider's customer-success address behind 'Contact us'. The spec names a "customer-success
 * address" but does not give it: this one is our assumption, to be confirmed by the product owner.
 */
export const CUSTOMER_SUCCESS_EMAIL = 'success@emailtoken.io';

type Movement = ChangeSummary['movement'];
/** '{Upgrade or Downgrade} to {new plan} Plan'. */
export const MOVEMENT_WORD: Record<Movement, string> = { upgrade: 'Upgrade', downgrade: 'Downgrade' };
/** The confirm dialog's primary button. */
export const MOVEMENT_ACTION: Record<Movement, string> = { upgrade: 'Pay & Upgrade', downgrade: 'Schedule Downgrade' };

export function confirmPlanTitle(summary: Pick<ChangeSummary, 'movement' | 'newPlan'>): string {
  return `${MOVEMENT_WORD[summary.movement]} to ${summary.newPlan} Plan`;
}

/** The words of the payment failure message that link to the billing portal. */
export const PAYMENT_METHOD_WORDS = 'payment method';
