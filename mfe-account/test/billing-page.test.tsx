import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PLAN_CHANGED } from '@console/shared/config';
import { consoleStore, navigation, type ConsoleState } from '@console/shared/session';
import { notify } from '@console/shared/ui';
import type { BillingOverview, Invoice } from '@console/shared/contracts';
import BillingPage from '../src/pages/billing-page';
import { NO_BILLING_TEXT, NO_BILLING_TITLE } from '@console/shared/contracts';
import { PORTAL_ERROR } from '../src/features/billing/payment-method-card';
import { fakeGateway, json, renderPage, signIn } from './account-kit';

jest.setTimeout(20_000);

function makeInvoice(i: number, overrides: Partial<Invoice> = {}): Invoice {
  return {
    _id: `in${i}`,
    created_at: `2026-0${i}-01T12:00:00.000Z`,
    description: `GROW UP (Monthly) ${i}`,
    subtotal: 200.41,
    tax: 42.09,
    total: 242.5,
    status: 'paid',
    ...overrides,
  };
}

function makeOverview(overrides: Partial<BillingOverview> = {}): BillingOverview {
  return {
    billing: true,
    plan: { key: 'growup', name: 'GROW UP', label: 'Grow with confidence' },
    priceId: 'price_growup1_monthly',
    period: 'monthly',
    emailVolume: '125.000',
    emailLimit: 125000,
    emailsUsed: 4200,
    periodStart: '2026-05-01',
    periodEnd: '2026-05-31',
    nextInvoice: { date: '2026-05-31', amount: 1234.5 },
    scheduledChange: null,
    paymentMethod: { label: 'Visa •••• 4242', failing: false },
    taxRate: 21,
    // Oldest first on purpose: the page sorts newest first.
    invoices: [makeInvoice(3), makeInvoice(4, { status: 'failed', description: 'Upgrade to GROW UP' }), makeInvoice(5)],
    ...overrides,
  };
}

const downgrade: NonNullable<BillingOverview['scheduledChange']> = {
  priceId: 'price_startup1_monthly',
  plan: 'START UP',
  period: 'semiAnnual',
  effectiveDate: '2026-05-31',
};

const initialState: ConsoleState = consoleStore.getState();
let success: jest.SpyInstance;
let failure: jest.SpyInstance;

beforeEach(() => {
  signIn();
  success = jest.spyOn(notify, 'success').mockReturnValue('t');
  failure = jest.spyOn(notify, 'error').mockReturnValue('t');
});
afterEach(() => {
  jest.restoreAllMocks();
  consoleStore.setState(initialState, true);
  signIn();
});

/** GET /v1/billing answers the overviews in turn (the last one again afterwards). */
function gateway(overviews: BillingOverview[], extra: Parameters<typeof fakeGateway>[0] = {}) {
  let served = 0;
  return fakeGateway({
    ...extra,
    'GET /v1/billing': () => json(overviews[Math.min(served++, overviews.length - 1)]),
  });
}

async function renderBilling() {
  const view = renderPage(<BillingPage />, '/account/billing');
  await screen.findByRole('region', { name: 'Current plan' });
  return view;
}

/** A region of the page by its heading. */
const block = (name: string) => screen.getByRole('region', { name });

const pickerClosed = { open: false, currentPriceId: null };

describe('Billing page', () => {
  it('shows a spinner, then every block of the overview', async () => {
    const gw = gateway([makeOverview({ scheduledChange: downgrade })]);
    renderPage(<BillingPage />, '/account/billing');
    expect(screen.getByRole('heading', { level: 1, name: 'Billing' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Loading billing' })).toBeInTheDocument();
    await screen.findByRole('region', { name: 'Current plan' });
    expect(screen.queryByRole('status', { name: 'Loading billing' })).not.toBeInTheDocument();
    expect(gw.to('GET', '/v1/billing')).toHaveLength(1);
    expect(gw.to('GET', '/v1/billing')[0]?.headers.get('authorization')).toBe('Bearer session-token');

    const plan = block('Current plan');
    expect(within(plan).getByText('GROW UP')).toBeInTheDocument();
    expect(within(plan).getByText('Grow with confidence')).toBeInTheDocument();
    expect(within(plan).getByText('Monthly')).toBeInTheDocument();
    // The next invoice is the scheduled plan's: it is not shown as the current plan's price.
    expect(within(plan).queryByText(/per billing period/)).not.toBeInTheDocument();
    expect(within(plan).getByRole('button', { name: 'Change plan' })).toBeEnabled();

    const usage = block('E-mail volume');
    const bar = within(usage).getByRole('progressbar', { name: '4,200 of 125,000 e-mails' });
    expect(bar).toHaveAttribute('aria-valuenow', '4200');
    expect(bar).toHaveAttribute('aria-valuemax', '125000');
    expect(within(usage).getByText('Current period: May 1, 2026 – May 31, 2026')).toBeInTheDocument();

    const next = block('Next invoice');
    expect(within(next).getByText('$1,234.50')).toBeInTheDocument();
    expect(within(next).getByText('incl. 21% tax')).toBeInTheDocument();
    expect(next).toHaveTextContent('On May 31, 2026');

    expect(screen.getByText(/Your plan changes to/)).toHaveTextContent(
      'Your plan changes to START UP (6 months) on May 31, 2026.',
    );
    expect(screen.getByRole('button', { name: 'Keep my current plan' })).toBeInTheDocument();

    const payment = block('Payment method');
    expect(within(payment).getByText('Visa •••• 4242')).toBeInTheDocument();
    expect(within(payment).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(payment).getByRole('button', { name: 'Manage payment method' })).toBeEnabled();

    const table = within(block('Invoice history')).getByRole('table', { name: 'Invoices' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Date', 'Description', 'Subtotal', 'Tax', 'Total', 'Status']);
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    expect(rows).toEqual([
      ['May 1, 2026', 'GROW UP (Monthly) 5', '$200.41', '$42.09', '$242.50', 'Paid'],
      ['April 1, 2026', 'Upgrade to GROW UP', '$200.41', '$42.09', '$242.50', 'Failed'],
      ['March 1, 2026', 'GROW UP (Monthly) 3', '$200.41', '$42.09', '$242.50', 'Paid'],
    ]);
  });

  it('shows the empty invoice text, no scheduled change, and no tax note at 0 %', async () => {
    gateway([makeOverview({ invoices: [], taxRate: 0, nextInvoice: null })]);
    await renderBilling();
    expect(screen.getByRole('cell', { name: 'No invoices yet.' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Keep my current plan' })).not.toBeInTheDocument();
    expect(within(block('Next invoice')).getByText('No upcoming invoice.')).toBeInTheDocument();
    expect(screen.queryByText(/tax/)).not.toBeInTheDocument();
  });

  it('shows the next invoice amount as the price of the current plan', async () => {
    gateway([makeOverview({ period: 'yearly' })]);
    await renderBilling();
    const plan = block('Current plan');
    expect(within(plan).getByText('1 year')).toBeInTheDocument();
    expect(within(plan).getByText('$1,234.50 per billing period')).toBeInTheDocument();
  });

  it('warns when payments with the card fail', async () => {
    gateway([makeOverview({ paymentMethod: { label: 'Mastercard •••• 0005', failing: true } })]);
    await renderBilling();
    const payment = block('Payment method');
    expect(within(payment).getByRole('alert')).toHaveTextContent('Payments with this card fail.');
    expect(within(payment).getByText('Mastercard •••• 0005')).toBeInTheDocument();
  });

  it('shows a reached volume as such', async () => {
    gateway([makeOverview({ emailsUsed: 130000 })]);
    await renderBilling();
    const usage = block('E-mail volume');
    expect(within(usage).getByRole('progressbar', { name: '130,000 of 125,000 e-mails' })).toHaveAttribute(
      'aria-valuenow',
      '125000',
    );
    expect(within(usage).getByText("You have used your plan's e-mail volume for this period.")).toBeInTheDocument();
  });

  it('shows the server message on a failed load and retries', async () => {
    let attempts = 0;
    const gw = fakeGateway({
      'GET /v1/billing': () =>
        attempts++ === 0 ? json({ message: 'Billing is unavailable right now.' }, 503) : json(makeOverview()),
    });
    const user = userEvent.setup({ delay: null });
    renderPage(<BillingPage />, '/account/billing');
    expect(await screen.findByRole('alert')).toHaveTextContent('Billing is unavailable right now.');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('region', { name: 'Current plan' })).toBeInTheDocument();
    expect(screen.queryByText('Billing is unavailable right now.')).not.toBeInTheDocument();
    expect(gw.to('GET', '/v1/billing')).toHaveLength(2);
  });

  it('offers no retry when access is refused', async () => {
    fakeGateway({ 'GET /v1/billing': () => json({ message: 'You do not have access to billing.' }, 403) });
    renderPage(<BillingPage />, '/account/billing');
    expect(await screen.findByRole('alert')).toHaveTextContent('You do not have access to billing.');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it('refetches the overview when the shell announces a plan change', async () => {
    const gw = gateway([
      makeOverview(),
      makeOverview({ plan: { key: 'scaleup', name: 'SCALE UP', label: 'Scale big communities' } }),
    ]);
    await renderBilling();
    expect(gw.to('GET', '/v1/billing')).toHaveLength(1);
    act(() => {
      window.dispatchEvent(new Event(PLAN_CHANGED));
    });
    expect(await within(block('Current plan')).findByText('SCALE UP')).toBeInTheDocument();
    expect(gw.to('GET', '/v1/billing')).toHaveLength(2);
  });
});

describe('Change plan', () => {
  it('without automated billing: the "Contact your account manager" dialog, no portal', async () => {
    gateway([makeOverview({ billing: false, paymentMethod: null, priceId: null, period: null })]);
    const user = userEvent.setup({ delay: null });
    await renderBilling();
    expect(within(block('Payment method')).queryByRole('button')).not.toBeInTheDocument();
    expect(within(block('Current plan')).getByText('No active subscription')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Change plan' }));
    expect(consoleStore.getState().info).toEqual({ title: NO_BILLING_TITLE, html: NO_BILLING_TEXT });
    const dialog = await screen.findByRole('dialog', { name: 'Contact your account manager' });
    expect(dialog).toHaveTextContent(
      "We aren't able to change your plan because you aren't set up for automated billing. Please contact your account manager to discuss your options.",
    );
    expect(consoleStore.getState().plans).toEqual(pickerClosed);
    await user.click(within(dialog).getByRole('button', { name: 'Close Window' }));
    expect(consoleStore.getState().info).toBeNull();
  });

  it("with automated billing: opens the shell's plan picker through the store, marking the current price", async () => {
    const openPlans = jest.spyOn(consoleStore.getState(), 'openPlans');
    gateway([makeOverview()]);
    const user = userEvent.setup({ delay: null });
    await renderBilling();
    expect(consoleStore.getState().plans).toEqual(pickerClosed);
    await user.click(screen.getByRole('button', { name: 'Change plan' }));
    expect(openPlans).toHaveBeenCalledWith({ currentPriceId: 'price_growup1_monthly' });
    expect(consoleStore.getState().plans).toEqual({ open: true, currentPriceId: 'price_growup1_monthly' });
    expect(consoleStore.getState().info).toBeNull();
  });
});

describe('Scheduled downgrade', () => {
  it('Keep my current plan: confirmed, DELETE, toast, refetch', async () => {
    const gw = gateway([makeOverview({ scheduledChange: downgrade }), makeOverview()], {
      'DELETE /v1/billing/scheduled-change': () => json({ message: 'You stay on GROW UP.' }),
    });
    const user = userEvent.setup({ delay: null });
    await renderBilling();

    await user.click(screen.getByRole('button', { name: 'Keep my current plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Keep your current plan?' });
    expect(dialog).toHaveTextContent('The change to START UP (6 months) on May 31, 2026 is cancelled');
    // Going back changes nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Go back' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(gw.to('DELETE', '/v1/billing/scheduled-change')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Keep my current plan' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Keep your current plan?' })).getByRole('button', {
        name: 'Confirm',
      }),
    );
    await waitFor(() => expect(screen.queryByText(/Your plan changes to/)).not.toBeInTheDocument());
    expect(gw.to('DELETE', '/v1/billing/scheduled-change')).toHaveLength(1);
    expect(gw.to('GET', '/v1/billing')).toHaveLength(2);
    expect(success).toHaveBeenCalledWith('You stay on GROW UP.');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows the server message when the change cannot be cancelled', async () => {
    const gw = gateway([makeOverview({ scheduledChange: downgrade })], {
      'DELETE /v1/billing/scheduled-change': () => json({ message: 'The change already took effect.' }, 409),
    });
    const user = userEvent.setup({ delay: null });
    await renderBilling();
    await user.click(screen.getByRole('button', { name: 'Keep my current plan' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Keep your current plan?' })).getByRole('button', {
        name: 'Confirm',
      }),
    );
    await waitFor(() => expect(failure).toHaveBeenCalledWith('The change already took effect.'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(gw.to('GET', '/v1/billing')).toHaveLength(1);
  });
});

describe('Manage payment method', () => {
  it('posts the return URL, stays busy and goes to the portal', async () => {
    const assign = jest.spyOn(navigation, 'assign').mockImplementation(() => undefined);
    let release = () => {};
    const gw = gateway([makeOverview()], {
      'POST /v1/billing/access-portal': () =>
        new Promise((resolve) => {
          release = () => resolve(json({ url: 'https://billing.example.test/session/abc' }));
        }),
    });
    const user = userEvent.setup({ delay: null });
    await renderBilling();
    await user.click(screen.getByRole('button', { name: 'Manage payment method' }));
    const button = await screen.findByRole('button', { name: /Manage payment method/ });
    await waitFor(() => expect(button).toBeDisabled());
    expect(button).toHaveAttribute('aria-busy', 'true');
    await waitFor(() => expect(gw.to('POST', '/v1/billing/access-portal')).toHaveLength(1));
    act(() => release());
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://billing.example.test/session/abc'));
    expect(gw.to('POST', '/v1/billing/access-portal')[0]?.body).toEqual({ return_url: window.location.href });
    expect(button).toBeDisabled();
  });

  it('shows the server message and lets the user try again', async () => {
    const assign = jest.spyOn(navigation, 'assign').mockImplementation(() => undefined);
    gateway([makeOverview()], {
      'POST /v1/billing/access-portal': () => json({ message: 'The billing provider is unavailable.' }, 502),
    });
    const user = userEvent.setup({ delay: null });
    await renderBilling();
    await user.click(screen.getByRole('button', { name: 'Manage payment method' }));
    await waitFor(() => expect(failure).toHaveBeenCalledWith('The billing provider is unavailable.'));
    expect(screen.getByRole('button', { name: 'Manage payment method' })).toBeEnabled();
    expect(assign).not.toHaveBeenCalled();
  });

  it('refuses a portal address that is not a web page', async () => {
    const assign = jest.spyOn(navigation, 'assign').mockImplementation(() => undefined);
    gateway([makeOverview()], { 'POST /v1/billing/access-portal': () => json({ url: 'javascript:alert(1)' }) });
    const user = userEvent.setup({ delay: null });
    await renderBilling();
    await user.click(screen.getByRole('button', { name: 'Manage payment method' }));
    await waitFor(() => expect(failure).toHaveBeenCalledWith('The billing portal sent an invalid address.'));
    expect(assign).not.toHaveBeenCalled();
    expect(failure).not.toHaveBeenCalledWith(PORTAL_ERROR);
  });
});
