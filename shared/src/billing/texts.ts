/**
 * Billing words the console shows and the gateway answers with (spec section 8). A module of its own,
 * free of schemas, so the shell can show them without loading the contracts.
 */

/** Upgrade pressed without automated billing (no billing customer id). */
export const NO_BILLING_TITLE = 'Contact your account manager';
export const NO_BILLING_TEXT =
  "We aren't able to change your plan because you aren't set up for automated billing. Please contact your account manager to discuss your options.";
