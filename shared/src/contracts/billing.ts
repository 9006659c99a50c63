/**
 * Billing and plans (spec sections 3, 4 and 9): the plan catalogue, the change summary, plan changes and the billing
 * overview, as the gateway sends and takes them. One place for the console and the gateway.
 *
 * Money on the wire is in US dollars as numbers with at most two decimals (the gateway computes in
 * integer cents and rounds once); the console shows two decimals.
 */
import * as z from 'zod/mini';
import { FEATURES, PLAN_KEYS } from '@console/shared/access';
import { text } from '@console/shared/contracts/core';

/** Spec section 4: monthly is the default. */
export const BILLING_PERIODS = ['monthly', 'semiAnnual', 'yearly'] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];
/** Months each period covers (prices per MONTH on the cards = price / months). */
export const PERIOD_MONTHS: Record<BillingPeriod, number> = { monthly: 1, semiAnnual: 6, yearly: 12 };
/** The billing switch's labels (spec section 2). */
export const PERIOD_LABELS: Record<BillingPeriod, string> = {
  monthly: 'Monthly',
  semiAnnual: '6 months',
  yearly: '1 year',
};

/** One price of a pricing option: the amount for the whole period and the payment provider's price id. */
export const PriceVariant = z.object({ price: z.number(), id: z.string() });
export type PriceVariant = z.infer<typeof PriceVariant>;

/** Spec section 3: a pricing option (key like basic1, startup3), its e-mail volume text ('10.000') and three prices. */
export const PricingOption = z.object({
  key: z.string(),
  emails: z.string(),
  monthly: PriceVariant,
  semiAnnual: PriceVariant,
  yearly: PriceVariant,
});
export type PricingOption = z.infer<typeof PricingOption>;

export const Plan = z.object({
  _id: z.string(),
  key: z.enum(PLAN_KEYS),
  /** 'BASIC', 'START UP', ... */
  name: z.string(),
  /** 'Kickstart your project', ... */
  label: z.string(),
  /** The feature texts of the plan card. */
  features: z.array(z.string()),
  /** The console features (spec section 6) the plan unlocks. */
  grants: z.array(z.enum(FEATURES)),
  /** Five options, in order of e-mail volume. */
  pricing: z.array(PricingOption),
});
export type Plan = z.infer<typeof Plan>;

/** GET /v1/plans: the catalogue, in plan order (BASIC first). */
export const PlanCatalogue = z.object({ records: z.array(Plan) });
export type PlanCatalogue = z.infer<typeof PlanCatalogue>;

/** Where a price id points in the catalogue. */
export interface PriceRef {
  plan: Plan;
  option: PricingOption;
  period: BillingPeriod;
  variant: PriceVariant;
}

/** Finds a price id in the catalogue (null when unknown). */
export function findPrice(plans: readonly Plan[], priceId: string): PriceRef | null {
  for (const plan of plans) {
    for (const option of plan.pricing) {
      for (const period of BILLING_PERIODS) {
        const variant = option[period];
        if (variant.id === priceId) return { plan, option, period, variant };
      }
    }
  }
  return null;
}

/** The price per MONTH shown on a card for a period, rounded to cents. */
export function pricePerMonth(option: PricingOption, period: BillingPeriod): number {
  return Math.round((option[period].price * 100) / PERIOD_MONTHS[period]) / 100;
}

/** Spec section 3: the change summary, GET /v1/billing/change-summary/{planPriceId}. */
export const ChangeSummary = z.object({
  movement: z.enum(['upgrade', 'downgrade']),
  /** Plan names ('GROW UP'). */
  newPlan: z.string(),
  currentPlan: z.string(),
  subtotal: z.number(),
  /** Percent (e.g. 21 for 21 %). */
  taxRate: z.number(),
  tax: z.number(),
  /** What the new price costs per period from effectiveDate on (downgrade) or the total of this change (upgrade). */
  total: z.number(),
  dueNow: z.number(),
  /** ISO date when a scheduled change takes effect; absent or null when it takes effect now. */
  effectiveDate: z.optional(z.nullable(z.string())),
});
export type ChangeSummary = z.infer<typeof ChangeSummary>;

/** GET (or POST) /v1/billing/change/{planPriceId}: the plan changed now, or a downgrade scheduled. */
export const ChangeResult = z.object({
  status: z.enum(['changed', 'scheduled']),
  plan: z.object({ key: z.enum(PLAN_KEYS), name: z.string() }),
  priceId: z.string(),
  effectiveDate: z.nullable(z.string()),
  /** The invoice charged now, when anything was due. */
  invoiceId: z.nullable(z.string()),
});
export type ChangeResult = z.infer<typeof ChangeResult>;

/** The message of a failed payment (spec section 8); its 'payment method' words link to the billing portal. */
export const PAYMENT_FAILED_MESSAGE = 'Error processing payment, please check your payment method and try again.';

/** Spec section 8: Upgrade pressed without automated billing (no billing customer id). */
export { NO_BILLING_TEXT, NO_BILLING_TITLE } from '@console/shared/billing';

/** POST /v1/billing/access-portal: return_url must be a console URL (anything else is a 400). */
export const PortalRequest = z.object({ return_url: text(2048) });
export type PortalRequest = z.infer<typeof PortalRequest>;
export const PortalResponse = z.object({ url: z.string() });
export type PortalResponse = z.infer<typeof PortalResponse>;

export const Invoice = z.object({
  _id: z.string(),
  created_at: z.string(),
  description: z.string(),
  subtotal: z.number(),
  tax: z.number(),
  total: z.number(),
  status: z.enum(['paid', 'failed']),
});
export type Invoice = z.infer<typeof Invoice>;

/** GET /v1/billing (company_settings): the billing page. */
export const BillingOverview = z.object({
  /** False when the tenant has no billing customer (no automated billing). */
  billing: z.boolean(),
  plan: z.object({ key: z.enum(PLAN_KEYS), name: z.string(), label: z.string() }),
  /** The current price; null without a subscription. */
  priceId: z.nullable(z.string()),
  period: z.nullable(z.enum(BILLING_PERIODS)),
  /** The e-mail volume of the current pricing option ('60.000') and its number. */
  emailVolume: z.nullable(z.string()),
  emailLimit: z.nullable(z.int()),
  /** E-mails sent this period. */
  emailsUsed: z.int(),
  periodStart: z.nullable(z.string()),
  periodEnd: z.nullable(z.string()),
  nextInvoice: z.nullable(z.object({ date: z.string(), amount: z.number() })),
  scheduledChange: z.nullable(
    z.object({ priceId: z.string(), plan: z.string(), period: z.enum(BILLING_PERIODS), effectiveDate: z.string() }),
  ),
  paymentMethod: z.nullable(z.object({ label: z.string(), failing: z.boolean() })),
  taxRate: z.number(),
  invoices: z.array(Invoice),
});
export type BillingOverview = z.infer<typeof BillingOverview>;

// ---------------------------------------------------------------------------------------------
// Catalogue administration (admin_plans): PATCH /v1/plans/{id}
// ---------------------------------------------------------------------------------------------

/** Limits of the plan editor; the gateway enforces the same. */
export const PLAN_EDIT_LIMITS = {
  label: 100,
  features: 12,
  feature: 120,
  /** Every plan has exactly five pricing options. */
  options: 5,
  /** US dollars for the whole period. */
  price: 1_000_000,
  priceIdMin: 3,
  priceIdMax: 100,
  /** E-mails of one option (keeps the volume within a 32-bit integer). */
  emails: 1_000_000_000,
} as const;

/** An e-mail volume as the cards show it: dots as thousands separators ('10.000', '1.250.000'). */
export const EMAIL_VOLUME_PATTERN = /^[1-9]\d{0,2}(?:\.\d{3})*$/;
/** A payment provider price id: letters, digits, '_' and '-'. */
export const PRICE_ID_PATTERN = /^[A-Za-z0-9_-]+$/;

/** '1.250.000' -> 1250000; null for text that is not a dotted volume. */
export function parseEmailVolume(text: string): number | null {
  const trimmed = text.trim();
  if (!EMAIL_VOLUME_PATTERN.test(trimmed)) return null;
  return Number(trimmed.replace(/\./g, ''));
}

/** True when an amount has at most two decimals (whole cents). */
export function hasWholeCents(amount: number): boolean {
  return Math.abs(amount * 100 - Math.round(amount * 100)) < 1e-6;
}

/** One price of an option as the editor sends it. */
export const PriceVariantUpdate = z.object({
  price: z
    .number()
    .check(
      z.positive('Enter a price above 0.'),
      z.lte(PLAN_EDIT_LIMITS.price, 'Use at most 1,000,000.'),
      z.refine(hasWholeCents, 'Use at most 2 decimals.'),
    ),
  id: text(PLAN_EDIT_LIMITS.priceIdMax, 'Use at most 100 characters.').check(
    z.trim(),
    z.minLength(PLAN_EDIT_LIMITS.priceIdMin, 'Use at least 3 characters.'),
    z.regex(PRICE_ID_PATTERN, 'Use letters, digits, _ and - only.'),
  ),
});
export type PriceVariantUpdate = z.infer<typeof PriceVariantUpdate>;

/** One pricing option as the editor sends it: its key (not editable), the volume text and three prices. */
export const PricingOptionUpdate = z.object({
  key: text(100).check(z.minLength(1, 'Missing the option key.')),
  emails: text(100).check(
    z.trim(),
    z.regex(EMAIL_VOLUME_PATTERN, 'Use dots as thousands separators, e.g. 10.000.'),
    z.refine((text) => (parseEmailVolume(text) ?? 0) <= PLAN_EDIT_LIMITS.emails, 'Use at most 1.000.000.000 e-mails.'),
  ),
  monthly: PriceVariantUpdate,
  semiAnnual: PriceVariantUpdate,
  yearly: PriceVariantUpdate,
});
export type PricingOptionUpdate = z.infer<typeof PricingOptionUpdate>;

/**
 * PATCH /v1/plans/{id} (admin_plans): every field optional; pricing, when sent, is exactly the plan's
 * five options in their order (by key). The gateway answers the updated Plan, or 400 with field
 * errors keyed like 'label', 'features.2', 'pricing.2.yearly.price'; besides the checks here it
 * refuses a price id used by another price, a volume not above the option before, and a new id
 * for a price a subscription uses.
 */
export const PlanUpdate = z.object({
  label: z.optional(
    text(PLAN_EDIT_LIMITS.label, 'Use at most 100 characters.').check(z.trim(), z.minLength(1, 'Enter a label.')),
  ),
  features: z.optional(
    z
      .array(
        text(PLAN_EDIT_LIMITS.feature, 'Use at most 120 characters.').check(
          z.trim(),
          z.minLength(1, 'Enter a feature or remove the row.'),
        ),
      )
      .check(
        z.minLength(1, 'Add at least one feature.'),
        z.maxLength(PLAN_EDIT_LIMITS.features, 'Use at most 12 features.'),
      ),
  ),
  pricing: z.optional(
    z.array(PricingOptionUpdate).check(z.length(PLAN_EDIT_LIMITS.options, 'Send the five pricing options.')),
  ),
});
export type PlanUpdate = z.infer<typeof PlanUpdate>;

/** Messages of the gateway's catalogue checks (the editor shows them under the fields). */
export const PLAN_EDIT_MESSAGES = {
  priceIdTaken: 'This price id is used by another price.',
  priceIdInUse: 'A subscription uses this price id.',
  volumeNotRising: 'Use more e-mails than the option before.',
  duplicateFeature: 'This feature is already listed.',
} as const;
