/**
 * The plan catalogue of spec section 9, as one table. seedPlans (src/seed.ts) writes it into the
 * database (plans.card_features, plan_prices); the gateway reads the catalogue from there.
 *
 * Amounts are integer cents for the WHOLE period (monthly: 1 month, semiAnnual: 6, yearly: 12).
 *
 * - E-mail volumes: the spec gives only the range of each plan (BASIC 10.000 to 50.000, START UP
 *   60.000 to 100.000, GROW UP 125.000 to 500.000, SCALE UP 600.000 to 1.250.000) and five prices;
 *   the five steps in between are our choice.
 * - Prices are exactly as printed in section 9 with ONE exception: SCALE UP's fifth six-month price
 *   is printed 557.5, which is off by a digit (5.7 × the monthly 975 = 5557.5); we store 5557.5.
 * - Other printed prices do not follow the six-month = 5.7 × monthly and yearly = 11.04 × monthly
 *   (12 months less 8 %) pattern either (basic2, growup4, scaleup2, scaleup3, scaleup4); they are
 *   kept as printed. billing-catalogue.test.ts lists them.
 */
import { BILLING_PERIODS, type BillingPeriod, type Feature, PLAN_FEATURES, type PlanKey } from '../contracts';

export interface CatalogueOption {
  /** basic1 ... scaleup5 */
  key: string;
  /** The volume as the cards show it: dots as thousands separators. */
  emails: string;
  emailLimit: number;
  /** Cents for the whole period. */
  cents: Record<BillingPeriod, number>;
}

export interface CataloguePlan {
  key: PlanKey;
  name: string;
  label: string;
  /** The feature texts of the plan card. */
  cardFeatures: string[];
  /** The console features the plan grants (spec section 6). */
  grants: readonly Feature[];
  /** Smart contracts the plan watches at most (the card's "2 smart contracts", "+3 Smart Contracts": 3 + 3). */
  smartContracts: number;
  options: CatalogueOption[];
}

/** `price_<option key>_<period>`, e.g. price_startup3_monthly. */
export function priceIdOf(optionKey: string, period: BillingPeriod): string {
  return `price_${optionKey}_${period}`;
}

/** 50.000 -> '50.000' (the spec's dot thousands separator). */
export function formatVolume(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}

/** Dollars as printed in the spec -> integer cents. */
const c = (dollars: number) => Math.round(dollars * 100);

type Row = [emails: number, monthly: number, semiAnnual: number, yearly: number];

function options(prefix: PlanKey, rows: Row[]): CatalogueOption[] {
  return rows.map(([emails, monthly, semiAnnual, yearly], i) => ({
    key: `${prefix}${i + 1}`,
    emails: formatVolume(emails),
    emailLimit: emails,
    cents: { monthly: c(monthly), semiAnnual: c(semiAnnual), yearly: c(yearly) },
  }));
}

const BASIC_CARD = ['E-mail support', '2 smart contracts', 'Up to 50.000 e-mails'];
const STARTUP_CARD = ['E-mail support', '2 smart contracts', 'AI Powered Newsletters', 'Token Airdrops'];
const GROWUP_CARD = ['Dedicated support', '3 smart contracts', 'AI Powered Newsletters', 'Token Airdrops'];
const SCALEUP_CARD = ['Dedicated support', '+3 Smart Contracts', 'AI Powered Newsletters', 'Token Airdrops'];

//                                    e-mails     monthly  six months  yearly
export const CATALOGUE: readonly CataloguePlan[] = [
  {
    key: 'basic',
    name: 'BASIC',
    label: 'Kickstart your project',
    cardFeatures: BASIC_CARD,
    grants: PLAN_FEATURES.basic,
    smartContracts: 2,
    options: options('basic', [
      [10_000, 50, 285, 552],
      [20_000, 65, 342, 662.4],
      [30_000, 70, 399, 772.8],
      [40_000, 80, 456, 883.2],
      [50_000, 90, 513, 993.6],
    ]),
  },
  {
    key: 'startup',
    name: 'START UP',
    label: 'For expanding projects',
    cardFeatures: STARTUP_CARD,
    grants: PLAN_FEATURES.startup,
    smartContracts: 2,
    options: options('startup', [
      [60_000, 100, 570, 1104],
      [70_000, 112.5, 641.25, 1242],
      [80_000, 120, 684, 1324.8],
      [90_000, 135, 769.5, 1490.4],
      [100_000, 150, 855, 1656],
    ]),
  },
  {
    key: 'growup',
    name: 'GROW UP',
    label: 'Grow with confidence',
    cardFeatures: GROWUP_CARD,
    grants: PLAN_FEATURES.growup,
    smartContracts: 3,
    options: options('growup', [
      [125_000, 242.5, 1382.25, 2677.2],
      [200_000, 347.5, 1980.75, 3836.4],
      [300_000, 422.5, 2408.25, 4664.4],
      [400_000, 480.5, 2736, 5299.2],
      [500_000, 547.5, 3120.75, 6044.4],
    ]),
  },
  {
    key: 'scaleup',
    name: 'SCALE UP',
    label: 'Scale big communities',
    cardFeatures: SCALEUP_CARD,
    grants: PLAN_FEATURES.scaleup,
    smartContracts: 6,
    options: options('scaleup', [
      [600_000, 600, 3420, 6624],
      [750_000, 722.5, 4118.5, 7976.4],
      [900_000, 765.5, 4360.5, 8445.6],
      [1_000_000, 827.5, 4761.75, 9135.6],
      // Six months printed 557.5 in the spec: a dropped digit (5.7 × 975 = 5557.5).
      [1_250_000, 975, 5557.5, 10764],
    ]),
  },
];

/** One row of plan_prices per option and period, as seedPlans stores them. */
export interface CataloguePriceRow {
  planKey: PlanKey;
  optionKey: string;
  position: number;
  emails: string;
  emailLimit: number;
  period: BillingPeriod;
  amountCents: number;
  priceId: string;
}

export function cataloguePriceRows(): CataloguePriceRow[] {
  return CATALOGUE.flatMap((plan) =>
    plan.options.flatMap((option, position) =>
      BILLING_PERIODS.map((period) => ({
        planKey: plan.key,
        optionKey: option.key,
        position,
        emails: option.emails,
        emailLimit: option.emailLimit,
        period,
        amountCents: option.cents[period],
        priceId: priceIdOf(option.key, period),
      })),
    ),
  );
}

/** Smart contracts a plan watches at most (0 for a plan the catalogue does not know). */
export function smartContractLimit(plan: string): number {
  return CATALOGUE.find((p) => p.key === plan)?.smartContracts ?? 0;
}
