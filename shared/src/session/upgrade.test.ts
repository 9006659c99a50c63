import { consoleStore } from './store';
import { continueUpgrade, upgradeStep } from './upgrade';
import { NO_BILLING_TEXT, NO_BILLING_TITLE } from '@console/shared/billing';

describe('the upgrade decision (spec section 4)', () => {
  it.each([
    [true, 'plan-picker'],
    [false, 'contact-account-manager'],
  ] as const)('billing customer %s → %s', (hasBilling, step) => {
    expect(upgradeStep(hasBilling)).toBe(step);
  });

  it('without billing: closes the upgrade dialog and shows Contact your account manager', () => {
    consoleStore.getState().openUpgrade('automations');
    expect(continueUpgrade(false)).toBe('contact-account-manager');
    const state = consoleStore.getState();
    expect(state.upgrade.open).toBe(false);
    expect(state.plans.open).toBe(false);
    expect(state.info).toEqual({ title: NO_BILLING_TITLE, html: NO_BILLING_TEXT });
  });

  it('with billing: opens the plan picker with the current price, no info dialog', () => {
    consoleStore.setState({ info: null });
    consoleStore.getState().openUpgrade(null);
    expect(continueUpgrade(true, { currentPriceId: 'price_basic1_monthly' })).toBe('plan-picker');
    const state = consoleStore.getState();
    expect(state.upgrade.open).toBe(false);
    expect(state.plans).toEqual({ open: true, currentPriceId: 'price_basic1_monthly' });
    expect(state.info).toBeNull();
  });
});
