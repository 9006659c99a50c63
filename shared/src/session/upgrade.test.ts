import { consoleStore } from './store';
import { continueUpgrade, hasBillingCustomer, upgradeStep } from './upgrade';
import { NO_BILLING_TEXT, NO_BILLING_TITLE } from '@console/shared/billing';

describe('the upgrade decision (spec section 4)', () => {
  it.each([
    [{ stripe_customer_id: 'cus_1' }, 'plan-picker'],
    [{ stripe_customer_id: null }, 'contact-account-manager'],
    [{ stripe_customer_id: '' }, 'contact-account-manager'],
    [{ stripe_customer_id: '  ' }, 'contact-account-manager'],
    [{ billing: true }, 'plan-picker'],
    [{ billing: false }, 'contact-account-manager'],
  ] as const)('%j → %s', (source, step) => {
    expect(upgradeStep(source)).toBe(step);
    expect(hasBillingCustomer(source)).toBe(step === 'plan-picker');
  });

  it('without billing: closes the upgrade dialog and shows Contact your account manager', () => {
    consoleStore.getState().openUpgrade('automations');
    expect(continueUpgrade({ stripe_customer_id: null })).toBe('contact-account-manager');
    const state = consoleStore.getState();
    expect(state.upgrade.open).toBe(false);
    expect(state.plans.open).toBe(false);
    expect(state.info).toEqual({ title: NO_BILLING_TITLE, html: NO_BILLING_TEXT });
  });

  it('with billing: opens the plan picker with the current price, no info dialog', () => {
    consoleStore.setState({ info: null });
    consoleStore.getState().openUpgrade(null);
    expect(continueUpgrade({ billing: true }, { currentPriceId: 'price_basic1_monthly' })).toBe('plan-picker');
    const state = consoleStore.getState();
    expect(state.upgrade.open).toBe(false);
    expect(state.plans).toEqual({ open: true, currentPriceId: 'price_basic1_monthly' });
    expect(state.info).toBeNull();
  });
});
