/**
 * The catalogue rules of PATCH /v1/plans/{id} that the contract (PlanUpdate) cannot state alone,
 * as a pure function: the caller reads the catalogue and the subscriptions, this answers the field
 * errors (keys like the error handler's: 'pricing.2.yearly.id').
 */
import {
  BILLING_PERIODS,
  type BillingPeriod,
  parseEmailVolume,
  PLAN_EDIT_MESSAGES,
  type PlanUpdate,
} from '../contracts';
import type { FieldErrors } from '../errors';

/** One stored option of the plan being edited, in position order. */
export interface CurrentOption {
  key: string;
  ids: Record<BillingPeriod, string>;
}

export interface PlanUpdateContext {
  /** The plan's five options as stored, in order. */
  options: readonly CurrentOption[];
  /** Every price id of the catalogue, this plan's included. */
  catalogueIds: ReadonlySet<string>;
  /** Price ids a subscription uses (current or scheduled). */
  subscribedIds: ReadonlySet<string>;
}

function add(errors: FieldErrors, key: string, message: string): void {
  const list = (errors[key] ??= []);
  if (!list.includes(message)) list.push(message);
}

function checkFeatures(features: readonly string[], errors: FieldErrors): void {
  const seen = new Set<string>();
  features.forEach((text, i) => {
    const folded = text.toLowerCase();
    if (seen.has(folded)) add(errors, `features.${i}`, PLAN_EDIT_MESSAGES.duplicateFeature);
    seen.add(folded);
  });
}

function checkPricing(pricing: NonNullable<PlanUpdate['pricing']>, ctx: PlanUpdateContext, errors: FieldErrors): void {
  // The options are the plan's own, in their order: nothing else is checked until they are.
  let keysMatch = pricing.length === ctx.options.length;
  pricing.forEach((option, i) => {
    const expected = ctx.options[i]?.key;
    if (option.key !== expected) {
      keysMatch = false;
      add(errors, `pricing.${i}.key`, expected ? `Expected the option ${expected} here.` : 'Unknown option.');
    }
  });
  if (!keysMatch) return;

  // Volumes rise from one option to the next.
  let previous: number | null = null;
  pricing.forEach((option, i) => {
    const volume = parseEmailVolume(option.emails);
    if (volume !== null && previous !== null && volume <= previous) {
      add(errors, `pricing.${i}.emails`, PLAN_EDIT_MESSAGES.volumeNotRising);
    }
    if (volume !== null) previous = volume;
  });

  // Price ids: unique across the catalogue (a new id may not be any stored price's, even one of this
  // plan's that is renamed in the same request); a subscribed price keeps its id.
  const counts = new Map<string, number>();
  for (const option of pricing) {
    for (const period of BILLING_PERIODS) counts.set(option[period].id, (counts.get(option[period].id) ?? 0) + 1);
  }
  pricing.forEach((option, i) => {
    const current = ctx.options[i];
    for (const period of BILLING_PERIODS) {
      const id = option[period].id;
      const key = `pricing.${i}.${period}.id`;
      const oldId = current?.ids[period];
      if ((counts.get(id) ?? 0) > 1 || (id !== oldId && ctx.catalogueIds.has(id))) {
        add(errors, key, PLAN_EDIT_MESSAGES.priceIdTaken);
      }
      if (oldId !== undefined && id !== oldId && ctx.subscribedIds.has(oldId)) {
        add(errors, key, PLAN_EDIT_MESSAGES.priceIdInUse);
      }
    }
  });
}

/** Field errors of an update (empty when it may be stored). */
export function checkPlanUpdate(input: PlanUpdate, ctx: PlanUpdateContext): FieldErrors {
  const errors: FieldErrors = {};
  if (input.features) checkFeatures(input.features, errors);
  if (input.pricing) checkPricing(input.pricing, ctx, errors);
  return errors;
}
