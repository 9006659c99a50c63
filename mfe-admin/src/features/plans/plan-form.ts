/**
 * The plan editor's form, pure: values as typed (prices are text until saved), the body to send
 * (checked with the shared PlanUpdate contract), server errors per field, and the list's summaries.
 */
import { ApiError } from '@console/shared/api';
import { formatPrice } from '@console/shared/format';
import { PERIOD_MONTHS, PLAN_EDIT_LIMITS, PlanUpdate, type BillingPeriod, type Plan } from '@console/shared/contracts';

export interface VariantValues {
  price: string;
  id: string;
}

export interface OptionValues extends Record<BillingPeriod, VariantValues> {
  key: string;
  emails: string;
}

export interface PlanFormValues {
  label: string;
  features: string[];
  pricing: OptionValues[];
}

/** Messages by field key as the gateway names them ('label', 'features.1', 'pricing.2.yearly.price'). */
export type FieldMessages = Partial<Record<string, string>>;

export interface PlanFormErrors {
  fields: FieldMessages;
  /** Messages that belong to no input (or the server's message when it named no field). */
  messages: string[];
}

export const NO_ERRORS: PlanFormErrors = { fields: {}, messages: [] };
export const PLAN_SAVED = 'Plan saved.';
export const SAVE_FAILED = 'The plan could not be saved. Please try again.';
export const CHECK_FIELDS = 'Some fields need attention: see the messages under them.';

/** Words for a period inside input names ('START UP option 2 yearly price'). */
export const PERIOD_WORDS: Record<BillingPeriod, string> = {
  monthly: 'monthly',
  semiAnnual: 'six-month',
  yearly: 'yearly',
};

export function planFormValues(plan: Plan): PlanFormValues {
  return {
    label: plan.label,
    features: plan.features.length > 0 ? [...plan.features] : [''],
    pricing: plan.pricing.map((option) => ({
      key: option.key,
      emails: option.emails,
      monthly: { price: String(option.monthly.price), id: option.monthly.id },
      semiAnnual: { price: String(option.semiAnnual.price), id: option.semiAnnual.id },
      yearly: { price: String(option.yearly.price), id: option.yearly.id },
    })),
  };
}

/** A typed price: a number, or the message for text that is none. */
function readPrice(text: string): number | string {
  const trimmed = text.trim();
  if (trimmed === '') return 'Enter a price.';
  if (!/^\d+(?:\.\d+)?$/.test(trimmed)) return 'Enter a number, e.g. 112.50.';
  return Number(trimmed);
}

/** The body to send, or the first message per field (the same checks as the gateway's contract). */
export function parsePlanForm(
  values: PlanFormValues,
): { ok: true; body: PlanUpdate } | { ok: false; errors: PlanFormErrors } {
  const fields: FieldMessages = {};
  const pricing = values.pricing.map((option, i) => {
    const variant = (period: BillingPeriod) => {
      const price = readPrice(option[period].price);
      if (typeof price === 'string') fields[`pricing.${i}.${period}.price`] = price;
      // A stand-in that passes, so the other checks still run for the rest of the row.
      return { price: typeof price === 'number' ? price : 1, id: option[period].id };
    };
    return {
      key: option.key,
      emails: option.emails,
      monthly: variant('monthly'),
      semiAnnual: variant('semiAnnual'),
      yearly: variant('yearly'),
    };
  });
  const parsed = PlanUpdate.safeParse({ label: values.label, features: values.features, pricing });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path.map(String).join('.');
      fields[key] ??= issue.message;
    }
  }
  if (parsed.success && Object.keys(fields).length === 0) return { ok: true, body: parsed.data };
  return { ok: false, errors: splitErrors(fields, values) };
}

const SHOWN_FIELD =
  /^(?:label|features|features\.(\d+)|pricing\.(\d+)\.(?:emails|(?:monthly|semiAnnual|yearly)\.(?:price|id)))$/;

/** Whether the editor has an input (or list) that shows this key's message. */
export function isShownField(key: string, values: PlanFormValues): boolean {
  const match = SHOWN_FIELD.exec(key);
  if (!match) return false;
  const [, feature, option] = match;
  if (feature !== undefined) return Number(feature) < values.features.length;
  if (option !== undefined) return Number(option) < values.pricing.length;
  return true;
}

function splitErrors(all: FieldMessages, values: PlanFormValues): PlanFormErrors {
  const fields: FieldMessages = {};
  const messages: string[] = [];
  for (const [key, message] of Object.entries(all)) {
    if (message === undefined) continue;
    if (isShownField(key, values)) fields[key] = message;
    else if (!messages.includes(message)) messages.push(message);
  }
  if (Object.keys(fields).length > 0) messages.unshift(CHECK_FIELDS);
  return { fields, messages };
}

/** A failed save: field messages under their inputs, the rest (or the server's message) above the form. */
export function planErrorsOf(error: unknown, values: PlanFormValues): PlanFormErrors {
  if (!(error instanceof ApiError)) return { fields: {}, messages: [SAVE_FAILED] };
  const split = splitErrors(error.fieldErrors(), values);
  if (split.messages.length === 0) split.messages.push(error.body.message || SAVE_FAILED);
  return split;
}

/** '$95/month' under a six-month or yearly price (nothing while the text is not a price). */
export function perMonthHint(text: string, period: BillingPeriod): string | null {
  const price = readPrice(text);
  if (typeof price === 'string' || price <= 0 || period === 'monthly') return null;
  return `${formatPrice(Math.round((price * 100) / PERIOD_MONTHS[period]) / 100)}/month`;
}

/** '60.000 – 100.000' e-mails of a plan's options. */
export function volumeRange(plan: Plan): string {
  const first = plan.pricing[0]?.emails;
  const last = plan.pricing[plan.pricing.length - 1]?.emails;
  if (!first || !last) return '—';
  return first === last ? first : `${first} – ${last}`;
}

/** '$100 – $150' monthly prices of a plan's options. */
export function monthlyRange(plan: Plan): string {
  const prices = plan.pricing.map((option) => option.monthly.price);
  if (prices.length === 0) return '—';
  const low = Math.min(...prices);
  const high = Math.max(...prices);
  return low === high ? formatPrice(low) : `${formatPrice(low)} – ${formatPrice(high)}`;
}

export const MAX_FEATURES = PLAN_EDIT_LIMITS.features;
