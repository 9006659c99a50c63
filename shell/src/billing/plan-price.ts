import { pricePerMonth, type BillingPeriod, type PricingOption } from '@console/shared/contracts';
import { formatMoney, formatPrice } from '@console/shared/format';

/** The price per MONTH on a plan card for a period: START UP first option, 6 months: 570 / 6 -> '$95'. */
export function cardPrice(option: PricingOption, period: BillingPeriod): string {
  return formatPrice(pricePerMonth(option, period));
}

const PERIOD_UNIT: Record<BillingPeriod, string> = { monthly: 'month', semiAnnual: '6 months', yearly: 'year' };

/** What a price costs per billing period: '$570.00 / 6 months'. */
export function perPeriod(amount: number, period: BillingPeriod): string {
  return `${formatMoney(amount)} / ${PERIOD_UNIT[period]}`;
}
