import type { ChangeResult, ChangeSummary, Plan, PricingOption } from '@console/shared/contracts';

/** The plan catalogue of spec section 9, as GET /v1/plans sends it. */
type Prices = [number, number, number, number, number];

function options(
  prefix: string,
  emails: string[],
  monthly: Prices,
  semiAnnual: Prices,
  yearly: Prices,
): PricingOption[] {
  return emails.map((volume, i) => {
    const key = `${prefix}${i + 1}`;
    return {
      key,
      emails: volume,
      monthly: { price: monthly[i] ?? 0, id: `price_${key}_monthly` },
      semiAnnual: { price: semiAnnual[i] ?? 0, id: `price_${key}_semiAnnual` },
      yearly: { price: yearly[i] ?? 0, id: `price_${key}_yearly` },
    };
  });
}

export const PLANS: Plan[] = [
  {
    _id: 'p-basic',
    key: 'basic',
    name: 'BASIC',
    label: 'Kickstart your project',
    features: ['E-mail support', '2 Smart Contracts', 'Up to 50.000 e-mails'],
    grants: ['manage_contacts'],
    pricing: options(
      'basic',
      ['10.000', '20.000', '30.000', '40.000', '50.000'],
      [50, 65, 70, 80, 90],
      [285, 342, 399, 456, 513],
      [552, 662.4, 772.8, 883.2, 993.6],
    ),
  },
  {
    _id: 'p-startup',
    key: 'startup',
    name: 'START UP',
    label: 'For expanding projects',
    features: ['E-mail support', '2 Smart Contracts', 'AI Powered Newsletters', 'Token Airdrops'],
    grants: ['manage_contacts', 'automations'],
    pricing: options(
      'startup',
      ['60.000', '70.000', '80.000', '90.000', '100.000'],
      [100, 112.5, 120, 135, 150],
      [570, 641.25, 684, 769.5, 855],
      [1104, 1242, 1324.8, 1490.4, 1656],
    ),
  },
  {
    _id: 'p-growup',
    key: 'growup',
    name: 'GROW UP',
    label: 'Grow with confidence',
    features: ['Dedicated support', '3 Smart Contracts'],
    grants: ['manage_contacts', 'automations', 'team_features'],
    pricing: options(
      'growup',
      ['125.000', '250.000', '350.000', '400.000', '500.000'],
      [242.5, 347.5, 422.5, 480.5, 547.5],
      [1382.25, 1980.75, 2408.25, 2736, 3120.75],
      [2677.2, 3836.4, 4664.4, 5299.2, 6044.4],
    ),
  },
  {
    _id: 'p-scaleup',
    key: 'scaleup',
    name: 'SCALE UP',
    label: 'Scale big communities',
    features: ['Dedicated support', '+3 Smart Contracts'],
    grants: ['manage_contacts', 'automations', 'team_features', 'api_access'],
    pricing: options(
      'scaleup',
      ['600.000', '750.000', '900.000', '1.000.000', '1.250.000'],
      [600, 722.5, 765.5, 827.5, 975],
      [3420, 4118.5, 4360.5, 4761.75, 557.5],
      [6624, 7976.4, 8445.6, 9135.6, 10764],
    ),
  },
];

export const UPGRADE_SUMMARY: ChangeSummary = {
  movement: 'upgrade',
  newPlan: 'GROW UP',
  currentPlan: 'START UP',
  subtotal: 1020.25,
  taxRate: 21,
  tax: 214.25,
  total: 1234.5,
  dueNow: 1234.5,
  effectiveDate: null,
};

export const DOWNGRADE_SUMMARY: ChangeSummary = {
  movement: 'downgrade',
  newPlan: 'BASIC',
  currentPlan: 'START UP',
  subtotal: 285,
  taxRate: 8.5,
  tax: 24.23,
  total: 309.23,
  dueNow: 0,
  effectiveDate: '2026-03-05T00:00:00.000Z',
};

export const CHANGED: ChangeResult = {
  status: 'changed',
  plan: { key: 'growup', name: 'GROW UP' },
  priceId: 'price_growup1_monthly',
  effectiveDate: null,
  invoiceId: 'inv_1',
};
