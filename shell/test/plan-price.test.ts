import type { BillingPeriod } from '@console/shared/contracts';
import { cardPrice, perPeriod } from '../src/billing/plan-price';
import { PLANS } from './billing-fixtures';

function plan(key: string) {
  const found = PLANS.find((p) => p.key === key);
  if (!found) throw new Error(`no plan ${key}`);
  return found;
}

describe('cardPrice: the price per month of spec section 9', () => {
  it.each<[string, number, BillingPeriod, string]>([
    ['basic', 0, 'monthly', '$50'],
    ['basic', 0, 'semiAnnual', '$47.50'],
    ['basic', 0, 'yearly', '$46'],
    ['basic', 1, 'yearly', '$55.20'],
    ['startup', 0, 'monthly', '$100'],
    ['startup', 0, 'semiAnnual', '$95'],
    ['startup', 0, 'yearly', '$92'],
    ['startup', 1, 'monthly', '$112.50'],
    ['startup', 1, 'semiAnnual', '$106.88'],
    ['startup', 1, 'yearly', '$103.50'],
    ['growup', 0, 'monthly', '$242.50'],
    ['growup', 0, 'semiAnnual', '$230.38'],
    ['growup', 0, 'yearly', '$223.10'],
    ['scaleup', 4, 'monthly', '$975'],
    ['scaleup', 4, 'yearly', '$897'],
  ])('%s option %i, %s -> %s', (key, index, period, text) => {
    const option = plan(key).pricing[index];
    if (!option) throw new Error(`${key}[${index}]`);
    expect(cardPrice(option, period)).toBe(text);
  });
});

describe('perPeriod', () => {
  it.each<[number, BillingPeriod, string]>([
    [100, 'monthly', '$100.00 / month'],
    [570, 'semiAnnual', '$570.00 / 6 months'],
    [1104, 'yearly', '$1,104.00 / year'],
  ])('%s %s -> %s', (amount, period, text) => expect(perPeriod(amount, period)).toBe(text));
});
