import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { queryClient } from '@console/shared/query';
import Cookies from 'js-cookie';
import toast from 'react-hot-toast';
import { DEFAULT_CONFIG, PLAN_CHANGED, setRuntimeConfig } from '@console/shared/config';
import { TENANT_PERMISSIONS, effectivePermissions, type Feature } from '@console/shared/access';
import { Tenant } from '@console/shared/contracts';
import { api } from '@console/shared/api';
import { consoleStore, navigation, type ConsoleUser } from '@console/shared/session';
import { ConsoleToaster, TOAST_DEDUPE_MS } from '@console/shared/ui';
import { DialogsHost } from '../src/components/dialogs-host';
import { CHANGED, DOWNGRADE_SUMMARY, PLANS, UPGRADE_SUMMARY } from './billing-fixtures';

type Reply = { status: number; body?: unknown };
type Handler = (body: unknown) => Reply | Promise<Reply>;
let routes: Record<string, Handler> = {};
let calls: { route: string; body: unknown }[] = [];

const user = (features: Feature[]): ConsoleUser => ({
  _id: 'u1',
  email: 'owner@acme.test',
  role: 'tenant_admin',
  permissions: effectivePermissions(TENANT_PERMISSIONS, features),
  features,
  tenant_id: 't1',
  tenant_name: 'Acme DAO',
  first_name: 'Ada',
  last_name: 'Owner',
  avatar: null,
  time_zone: null,
  impersonator: null,
  is_impersonating: false,
  enableExperimentalFeatures: false,
});
const tenant = (stripe: string | null) => ({
  _id: 't1',
  name: 'Acme DAO',
  plan: { _id: 'p-startup', key: 'startup', name: 'START UP' },
  stripe_customer_id: stripe,
  last_warning_sent_date: null,
  last_limit_sent_date: null,
  created_at: '2025-01-01T00:00:00.000Z',
});
const ok = (body: unknown): Reply => ({ status: 200, body });
const count = (route: string) => calls.filter((c) => c.route === route).length;
/** A reply we release by hand, to look at the busy state. */
function deferred() {
  let release: (reply: Reply) => void = () => {};
  const promise = new Promise<Reply>((resolve) => (release = resolve));
  return { handler: () => promise, release };
}

beforeAll(() => {
  setRuntimeConfig({ ...DEFAULT_CONFIG, gatewayUrl: 'http://gw.test' });
  // react-hot-toast asks for prefers-reduced-motion; jsdom has no matchMedia.
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
});
beforeEach(() => {
  calls = [];
  routes = {
    'GET /v1/plans': () => ok({ records: PLANS }),
    'GET /v1/tenants/current': () => ok(tenant('cus_1')),
    [`GET /v1/billing/change-summary/price_growup1_monthly`]: () => ok(UPGRADE_SUMMARY),
    [`GET /v1/billing/change-summary/price_basic1_semiAnnual`]: () => ok(DOWNGRADE_SUMMARY),
    'POST /v1/auth/verify': () => ok({ user: user(['manage_contacts', 'automations', 'team_features']) }),
  };
  globalThis.fetch = (async (input: Request | string | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const route = `${request.method} ${new URL(request.url).pathname}`;
    const text = await request.text();
    calls.push({ route, body: text ? JSON.parse(text) : undefined });
    const handler = routes[route];
    const reply = handler
      ? await handler(text ? JSON.parse(text) : undefined)
      : { status: 404, body: { message: 'Not found' } };
    return new Response(reply.body === undefined ? '' : JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof fetch;
  navigation.assign = jest.fn();
  Cookies.set('token', 'tok-1');
  consoleStore.setState({
    user: user(['manage_contacts']),
    token: 'tok-1',
    upgrade: { open: false, feature: null },
    info: null,
    confirm: null,
    plans: { open: false, currentPriceId: null },
  });
});
afterEach(async () => {
  Cookies.remove('token');
  act(() => toast.remove());
  // The console shows a toast's text once within TOAST_DEDUPE_MS (spec, UI timings); two tests
  // that each end in 'Plan updated!' less than that apart would see the second one blocked.
  await new Promise((resolve) => setTimeout(resolve, TOAST_DEDUPE_MS));
});

/** The overview's tenant query, to see the tenant refetched after a change. */
function TenantProbe() {
  const query = useQuery({
    queryKey: ['tenant', 'current', 't1'],
    queryFn: () => api.get('/v1/tenants/current', Tenant),
  });
  return <span data-testid="probe">{query.data?.plan.name}</span>;
}

/** The console has one query cache (the plan flow provides it itself), so the probe reads the same one. */
function renderHost() {
  queryClient.clear();
  const result = render(
    <QueryClientProvider client={queryClient}>
      <TenantProbe />
      <DialogsHost />
      <ConsoleToaster />
    </QueryClientProvider>,
  );
  return { ...result, user: userEvent.setup() };
}

async function openPicker(currentPriceId: string | null = null) {
  const ui = renderHost();
  act(() => consoleStore.getState().openPlans({ currentPriceId }));
  const dialog = await screen.findByRole('dialog', { name: 'Change your plan' });
  await within(dialog).findByRole('article', { name: 'BASIC' });
  return { ...ui, dialog };
}
const card = (name: string) => screen.getByRole('article', { name });
const price = (name: string) => within(card(name)).getByTestId('plan-price').textContent;

async function signUpFor(ui: { user: ReturnType<typeof userEvent.setup> }, name: string) {
  await ui.user.click(within(card(name)).getByRole('button', { name: 'Sign-up' }));
}

describe('Upgrade pressed', () => {
  it("without a billing customer id: 'Contact your account manager' with the exact text", async () => {
    routes['GET /v1/tenants/current'] = () => ok(tenant(null));
    const ui = renderHost();
    act(() => consoleStore.getState().openUpgrade('automations'));
    await ui.user.click(await screen.findByRole('button', { name: 'Upgrade Your Plan' }));
    const info = await screen.findByRole('dialog', { name: 'Contact your account manager' });
    expect(info).toHaveTextContent(
      "We aren't able to change your plan because you aren't set up for automated billing. Please contact your account manager to discuss your options.",
    );
    expect(consoleStore.getState().plans.open).toBe(false);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Unlock more features!' })).toBeNull());
  });

  it("an empty billing customer id is none (the shared decision): 'Contact your account manager'", async () => {
    routes['GET /v1/tenants/current'] = () => ok(tenant(''));
    const ui = renderHost();
    act(() => consoleStore.getState().openUpgrade('automations'));
    await ui.user.click(await screen.findByRole('button', { name: 'Upgrade Your Plan' }));
    expect(await screen.findByRole('dialog', { name: 'Contact your account manager' })).toBeInTheDocument();
    expect(consoleStore.getState().plans.open).toBe(false);
  });

  it('with a billing customer id: the plan picker opens instead of the upgrade dialog', async () => {
    const ui = renderHost();
    act(() => consoleStore.getState().openUpgrade('automations'));
    await ui.user.click(await screen.findByRole('button', { name: 'Upgrade Your Plan' }));
    expect(await screen.findByRole('dialog', { name: 'Change your plan' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Unlock more features!' })).toBeNull());
    expect(screen.queryByRole('dialog', { name: 'Contact your account manager' })).toBeNull();
  });
});

describe('Change plan dialog', () => {
  it('shows the texts, the billing switch, four cards and the contact line', async () => {
    const { dialog } = await openPicker();
    expect(dialog).toHaveAccessibleDescription('Choose the plan that best fits your needs.');
    const periods = within(dialog).getByRole('radiogroup', { name: 'Billing period' });
    expect(
      within(periods)
        .getAllByRole('radio')
        .map((r) => r.closest('label')?.textContent),
    ).toEqual(['Monthly', '6 months', '1 year']);
    expect(within(periods).getByRole('radio', { name: 'Monthly' })).toBeChecked();
    expect(
      within(dialog)
        .getAllByRole('article')
        .map((a) => a.querySelector('h3')?.textContent),
    ).toEqual(['BASIC', 'START UP', 'GROW UP', 'SCALE UP']);
    const startup = card('START UP');
    expect(startup).toHaveTextContent('For expanding projects');
    expect(within(startup).getByTestId('plan-price')).toHaveTextContent('$100');
    expect(startup).toHaveTextContent('/month');
    const volume = within(startup).getByLabelText('E-mail volume');
    expect(volume).toHaveValue('startup1');
    expect(
      within(volume)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['60.000 e-mails', '70.000 e-mails', '80.000 e-mails', '90.000 e-mails', '100.000 e-mails']);
    const features = within(startup).getByRole('list', { name: 'Features' });
    expect(
      within(features)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['E-mail support', '2 Smart Contracts', 'AI Powered Newsletters', 'Token Airdrops']);
    expect(within(startup).getByRole('button', { name: 'Sign-up' })).toBeEnabled();
    expect(screen.queryByText('Current plan')).toBeNull();
    expect(dialog).toHaveTextContent('Need something different? Contact us');
    expect(within(dialog).getByRole('link', { name: 'Contact us' })).toHaveAttribute(
      'href',
      'mailto:success@emailtoken.io',
    );
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });

  it('the billing switch shows the price per month of the chosen period', async () => {
    const ui = await openPicker();
    expect(price('START UP')).toBe('$100');
    expect(price('GROW UP')).toBe('$242.50');
    await ui.user.click(screen.getByRole('radio', { name: '6 months' }));
    expect(screen.getByRole('radio', { name: '6 months' })).toBeChecked();
    expect(price('START UP')).toBe('$95');
    expect(price('GROW UP')).toBe('$230.38');
    await ui.user.click(screen.getByRole('radio', { name: '1 year' }));
    expect(price('START UP')).toBe('$92');
    expect(price('BASIC')).toBe('$46');
    await ui.user.click(screen.getByRole('radio', { name: 'Monthly' }));
    expect(price('START UP')).toBe('$100');
  });

  it("the e-mail volume dropdown switches that card's price only", async () => {
    const ui = await openPicker();
    await ui.user.selectOptions(within(card('START UP')).getByLabelText('E-mail volume'), '70.000 e-mails');
    expect(price('START UP')).toBe('$112.50');
    expect(price('BASIC')).toBe('$50');
    await ui.user.click(screen.getByRole('radio', { name: '1 year' }));
    expect(price('START UP')).toBe('$103.50');
  });

  it('the current price (when the caller knows it) has Sign-up disabled and a Current plan note', async () => {
    const ui = await openPicker('price_startup1_monthly');
    const button = within(card('START UP')).getByRole('button', { name: 'Sign-up' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription('Current plan');
    await ui.user.click(screen.getByRole('radio', { name: '1 year' }));
    expect(within(card('START UP')).getByRole('button', { name: 'Sign-up' })).toBeEnabled();
    expect(screen.queryByText('Current plan')).toBeNull();
  });

  it.each([
    ['Escape', async (ui: { user: ReturnType<typeof userEvent.setup> }) => ui.user.keyboard('{Escape}')],
    [
      'the backdrop',
      async (ui: { user: ReturnType<typeof userEvent.setup> }) => ui.user.click(screen.getByTestId('dialog-backdrop')),
    ],
    [
      'the close icon',
      async (ui: { user: ReturnType<typeof userEvent.setup> }) =>
        ui.user.click(screen.getByRole('button', { name: 'Close' })),
    ],
  ])('closes from %s', async (_how, dismiss) => {
    const ui = await openPicker();
    await dismiss(ui);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Change your plan' })).toBeNull());
    expect(consoleStore.getState().plans.open).toBe(false);
  });

  it('opens again on monthly with each first option', async () => {
    const ui = await openPicker();
    await ui.user.click(screen.getByRole('radio', { name: '1 year' }));
    await ui.user.selectOptions(within(card('BASIC')).getByLabelText('E-mail volume'), '20.000 e-mails');
    await ui.user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    act(() => consoleStore.getState().openPlans());
    await screen.findByRole('dialog', { name: 'Change your plan' });
    expect(screen.getByRole('radio', { name: 'Monthly' })).toBeChecked();
    expect(price('BASIC')).toBe('$50');
  });
});

describe('Confirm plan dialog', () => {
  it('Sign-up loads the summary (spinner, then the lines) of an upgrade', async () => {
    const summary = deferred();
    routes['GET /v1/billing/change-summary/price_growup1_monthly'] = summary.handler;
    const ui = await openPicker();
    await signUpFor(ui, 'GROW UP');
    const dialog = await screen.findByRole('dialog', { name: 'Change to GROW UP Plan' });
    expect(within(dialog).getByRole('status', { name: 'Loading the change summary' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: /Pay & Upgrade/ })).toBeNull();
    await waitFor(() => expect(count('GET /v1/billing/change-summary/price_growup1_monthly')).toBe(1));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Change your plan' })).toBeNull());
    summary.release(ok(UPGRADE_SUMMARY));
    const ready = await screen.findByRole('dialog', { name: 'Upgrade to GROW UP Plan' });
    expect(within(ready).queryByRole('status')).toBeNull();
    const lines = within(ready).getByTestId('change-summary');
    expect(
      within(lines)
        .getAllByRole('term')
        .map((t) => t.textContent),
    ).toEqual(['Subtotal', 'Tax (21%)', 'Amount due now']);
    expect(
      within(lines)
        .getAllByRole('definition')
        .map((d) => d.textContent),
    ).toEqual(['$1,020.25', '$214.25', '$1,234.50']);
    expect(ready).not.toHaveTextContent("What you'll pay starting:");
    expect(within(ready).getByRole('button', { name: 'Pay & Upgrade' })).toBeEnabled();
    expect(within(ready).getByRole('button', { name: 'Cancel' })).toBeEnabled();
  });

  it('a downgrade: title, Schedule Downgrade and the block for the effective date', async () => {
    const ui = await openPicker();
    await ui.user.click(screen.getByRole('radio', { name: '6 months' }));
    await signUpFor(ui, 'BASIC');
    const dialog = await screen.findByRole('dialog', { name: 'Downgrade to BASIC Plan' });
    const lines = within(dialog).getByTestId('change-summary');
    expect(
      within(lines)
        .getAllByRole('term')
        .map((t) => t.textContent),
    ).toEqual(['Subtotal', 'Tax (8.5%)', "What you'll pay starting: March 5, 2026", 'Amount due now']);
    expect(
      within(lines)
        .getAllByRole('definition')
        .map((d) => d.textContent),
    ).toEqual(['$285.00', '$24.23', '$309.23 / 6 months', '$0.00']);
    expect(lines).toHaveTextContent(
      "You'll stay on your current START UP plan, with its quotas intact, until March 5, 2026.",
    );
    expect(within(dialog).getByRole('button', { name: 'Schedule Downgrade' })).toBeEnabled();
    expect(within(dialog).queryByRole('button', { name: /Pay & Upgrade/ })).toBeNull();
  });

  it('Cancel returns to the plan list with its choices', async () => {
    const ui = await openPicker();
    await ui.user.click(screen.getByRole('radio', { name: '6 months' }));
    await signUpFor(ui, 'BASIC');
    const dialog = await screen.findByRole('dialog', { name: 'Downgrade to BASIC Plan' });
    await ui.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await screen.findByRole('dialog', { name: 'Change your plan' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Downgrade to BASIC Plan' })).toBeNull());
    expect(screen.getByRole('radio', { name: '6 months' })).toBeChecked();
    expect(consoleStore.getState().plans.open).toBe(true);
    // Choosing again loads a fresh summary.
    await signUpFor(ui, 'BASIC');
    await screen.findByRole('dialog', { name: 'Downgrade to BASIC Plan' });
    expect(count('GET /v1/billing/change-summary/price_basic1_semiAnnual')).toBe(2);
  });

  it('while the change runs: busy button, no Cancel, one request for a double click; success completes the flow', async () => {
    const change = deferred();
    routes['GET /v1/billing/change/price_growup1_monthly'] = change.handler;
    const events: unknown[] = [];
    const listener = (event: Event) => events.push(event instanceof CustomEvent ? event.detail : null);
    window.addEventListener(PLAN_CHANGED, listener);
    const ui = await openPicker();
    await waitFor(() => expect(screen.getByTestId('probe')).toHaveTextContent('START UP'));
    routes['GET /v1/tenants/current'] = () =>
      ok({ ...tenant('cus_1'), plan: { _id: 'p-growup', key: 'growup', name: 'GROW UP' } });
    await signUpFor(ui, 'GROW UP');
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade to GROW UP Plan' });
    await ui.user.dblClick(within(dialog).getByRole('button', { name: 'Pay & Upgrade' }));
    const busy = within(dialog).getByRole('button', { name: /Pay & Upgrade/ });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute('aria-busy', 'true');
    expect(within(dialog).queryByRole('button', { name: 'Cancel' })).toBeNull();
    await ui.user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Upgrade to GROW UP Plan' })).toBeInTheDocument();
    expect(count('GET /v1/billing/change/price_growup1_monthly')).toBe(1);

    change.release(ok(CHANGED));
    expect(await screen.findByText('Plan updated!')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    window.removeEventListener(PLAN_CHANGED, listener);
    expect(events).toEqual([CHANGED]);
    expect(count('POST /v1/auth/verify')).toBe(1);
    expect(consoleStore.getState().user?.features).toEqual(['manage_contacts', 'automations', 'team_features']);
    expect(consoleStore.getState().user?.permissions).toContain('automations');
    expect(consoleStore.getState().plans.open).toBe(false);
    await waitFor(() => expect(screen.getByTestId('probe')).toHaveTextContent('GROW UP'));
    expect(count('GET /v1/tenants/current')).toBe(2);
    expect(count('GET /v1/billing/change/price_growup1_monthly')).toBe(1);
  });

  it('a failed payment: the message with a payment method link to the portal; retry stays possible', async () => {
    routes['GET /v1/billing/change/price_growup1_monthly'] = () => ({
      status: 402,
      body: { message: 'Error processing payment, please check your payment method and try again.' },
    });
    routes['POST /v1/billing/access-portal'] = () => ok({ url: 'https://billing.example.test/session/1' });
    const events: unknown[] = [];
    const listener = (event: Event) => events.push(event);
    window.addEventListener(PLAN_CHANGED, listener);
    const ui = await openPicker();
    await signUpFor(ui, 'GROW UP');
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade to GROW UP Plan' });
    await ui.user.click(within(dialog).getByRole('button', { name: 'Pay & Upgrade' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Error processing payment, please check your payment method and try again.');
    expect(within(dialog).getByRole('button', { name: 'Pay & Upgrade' })).toBeEnabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeEnabled();
    expect(events).toEqual([]);
    expect(screen.queryByText('Plan updated!')).toBeNull();

    await ui.user.click(within(alert).getByRole('button', { name: 'payment method' }));
    await waitFor(() => expect(navigation.assign).toHaveBeenCalledWith('https://billing.example.test/session/1'));
    expect(calls.find((c) => c.route === 'POST /v1/billing/access-portal')?.body).toEqual({
      return_url: window.location.href,
    });

    routes['GET /v1/billing/change/price_growup1_monthly'] = () => ok(CHANGED);
    await ui.user.click(within(dialog).getByRole('button', { name: 'Pay & Upgrade' }));
    expect(await screen.findByText('Plan updated!')).toBeInTheDocument();
    window.removeEventListener(PLAN_CHANGED, listener);
    expect(events).toHaveLength(1);
    expect(count('GET /v1/billing/change/price_growup1_monthly')).toBe(2);
  });

  it('any other failure shows the server message as text', async () => {
    routes['GET /v1/billing/change/price_growup1_monthly'] = () => ({
      status: 409,
      body: { message: '<b>A change is already scheduled</b>' },
    });
    const ui = await openPicker();
    await signUpFor(ui, 'GROW UP');
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade to GROW UP Plan' });
    await ui.user.click(within(dialog).getByRole('button', { name: 'Pay & Upgrade' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('<b>A change is already scheduled</b>');
    expect(alert.querySelector('b')).toBeNull();
    expect(within(alert).queryByRole('button')).toBeNull();
  });

  it('a summary that cannot load says so and offers no primary button', async () => {
    routes['GET /v1/billing/change-summary/price_growup1_monthly'] = () => ({
      status: 400,
      body: { message: 'Unknown price' },
    });
    const ui = await openPicker();
    await signUpFor(ui, 'GROW UP');
    const dialog = await screen.findByRole('dialog', { name: 'Change to GROW UP Plan' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Could not load the change summary. Unknown price',
    );
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Cancel']);
  });
});
