import { StrictMode } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, MemoryRouter, Route, RouterProvider, Routes } from '@console/shared/router';
import Cookies from 'js-cookie';
import { DEFAULT_CONFIG, setRuntimeConfig } from '@console/shared/config';
import { TENANT_PERMISSIONS, effectivePermissions } from '@console/shared/access';
import { consoleStore, navigation } from '@console/shared/session';
import { CHECKOUT_CHECK_MAIL, PLAN_FEATURES, type CheckoutSummary } from '@console/shared/contracts';
import { CheckoutPage } from '../src/pages/checkout';
import { CheckoutSuccessPage } from '../src/pages/checkout-success';
import { rememberCheckout } from '../src/checkout/api';
import { routeObjects } from '../src/router';
import { PLANS } from './billing-fixtures';

jest.mock('../src/remotes', () => ({ registerRemotesFor: jest.fn() }));

type Reply = { status: number; body?: unknown };
type Handler = (body: unknown) => Reply | Promise<Reply>;
let routes: Record<string, Handler> = {};
let calls: { route: string; body: unknown; authorization: string | null }[] = [];
const ok = (body: unknown): Reply => ({ status: 200, body });
const callsTo = (route: string) => calls.filter((c) => c.route === route);

const SESSION = '7d9f6a52-8a0e-4d7c-9a55-3c1d2f4b6e01';
const SUMMARY: CheckoutSummary = {
  tenant_name: 'Rocket Club',
  plan: { key: 'growup', name: 'GROW UP', label: 'Grow with confidence' },
  price_id: 'price_growup1_monthly',
  emails: '125.000',
  period: 'monthly',
  amount: 242.5,
  period_end: '2026-06-01T10:00:00.000Z',
};
const OWNER = {
  _id: 'u-new',
  email: 'rita@rocket.test',
  role: 'tenant_admin',
  permissions: effectivePermissions(TENANT_PERMISSIONS, PLAN_FEATURES.growup),
  features: [...PLAN_FEATURES.growup],
  tenant_id: 't-new',
  tenant_name: 'Rocket Club',
  first_name: 'Rita',
  last_name: 'Rocket',
  avatar: null,
  time_zone: null,
  impersonator: null,
};

beforeAll(() => setRuntimeConfig({ ...DEFAULT_CONFIG, gatewayUrl: 'http://gw.test' }));
beforeEach(() => {
  calls = [];
  routes = {
    'GET /v1/plans/public': () => ok({ records: PLANS }),
    'POST /v1/auth/verify': () => ok({ user: OWNER }),
  };
  globalThis.fetch = (async (input: Request | string | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const route = `${request.method} ${new URL(request.url).pathname}`;
    const text = await request.text();
    const body: unknown = text ? JSON.parse(text) : undefined;
    calls.push({ route, body, authorization: request.headers.get('authorization') });
    const handler = routes[route];
    const reply = handler ? await handler(body) : { status: 404, body: { message: 'Not found' } };
    return new Response(reply.body === undefined ? '' : JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof fetch;
  navigation.assign = jest.fn();
  Cookies.remove('token');
  Cookies.remove('admin_token');
  window.localStorage.clear();
  consoleStore.setState({ user: null, token: null, busy: false, error: false, email: '', password: '' });
});

const client = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

function renderCheckout(priceId: string) {
  return render(
    <QueryClientProvider client={client()}>
      <MemoryRouter initialEntries={[`/checkout/${priceId}`]}>
        <Routes>
          <Route path="/checkout/:price_id" element={<CheckoutPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

function renderSuccess(search: string) {
  return render(
    <StrictMode>
      <QueryClientProvider client={client()}>
        <MemoryRouter initialEntries={[`/checkout/success${search}`]}>
          <Routes>
            <Route path="/checkout/success" element={<CheckoutSuccessPage />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </StrictMode>,
  );
}

async function fillForm(overrides: Partial<Record<string, string>> = {}) {
  const values = {
    'Community name': 'Rocket Club',
    'First name': 'Rita',
    'Last name': 'Rocket',
    'Work e-mail': 'rita@rocket.test',
    Password: 'rocket-pass-2026',
    ...overrides,
  };
  for (const [label, value] of Object.entries(values)) {
    if (value) await userEvent.type(screen.getByLabelText(label), value);
  }
  await userEvent.click(screen.getByLabelText('I accept the terms of service and the privacy policy.'));
}
const submit = () => userEvent.click(screen.getByRole('button', { name: /Continue to payment/ }));

describe('/checkout/:price_id', () => {
  test('shows the chosen plan from the public catalogue, without a session', async () => {
    renderCheckout('price_growup1_monthly');
    expect(await screen.findByRole('heading', { name: 'Subscribe to GROW UP' })).toBeInTheDocument();
    expect(screen.getByText('Grow with confidence')).toBeInTheDocument();
    const lines = within(screen.getByLabelText('Order summary'));
    expect(lines.getByText('125.000 e-mails')).toBeInTheDocument();
    expect(lines.getByText('Monthly')).toBeInTheDocument();
    expect(lines.getByText('$242.50 / month')).toBeInTheDocument();
    expect(lines.getByText('$242.50 /month')).toBeInTheDocument();
    expect(callsTo('GET /v1/plans/public')).toHaveLength(1);
    expect(callsTo('GET /v1/plans/public')[0]?.authorization).toBeNull();
    for (const label of ['Community name', 'First name', 'Last name', 'Work e-mail', 'Password']) {
      expect(screen.getByLabelText(label)).toHaveValue('');
    }
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('At least 10 characters.');
    expect(screen.getByRole('checkbox', { name: /I accept the terms/ })).not.toBeChecked();
  });

  test('a six-month price: the period total and the price per month', async () => {
    renderCheckout('price_startup1_semiAnnual');
    await screen.findByRole('heading', { name: 'Subscribe to START UP' });
    const lines = within(screen.getByLabelText('Order summary'));
    expect(lines.getByText('6 months')).toBeInTheDocument();
    expect(lines.getByText('$570.00 / 6 months')).toBeInTheDocument();
    expect(lines.getByText('$95 /month')).toBeInTheDocument();
  });

  test('an unknown price: a clear message and links to the plans', async () => {
    renderCheckout('price_nope');
    expect(await screen.findByRole('alert')).toHaveTextContent('This price does not exist.');
    expect(screen.queryByRole('button', { name: /Continue to payment/ })).toBeNull();
    const links = within(screen.getByRole('navigation', { name: 'Plans' })).getAllByRole('link');
    expect(links.map((l) => l.getAttribute('href'))).toEqual([
      '/checkout/price_basic1_monthly',
      '/checkout/price_startup1_monthly',
      '/checkout/price_growup1_monthly',
      '/checkout/price_scaleup1_monthly',
    ]);
    expect(links[2]).toHaveTextContent('GROW UP — Grow with confidence, from $242.50 /month');
  });

  test('checks the fields with the gateway’s rules before sending, and focuses the first error', async () => {
    renderCheckout('price_growup1_monthly');
    await screen.findByRole('heading', { name: 'Subscribe to GROW UP' });
    await userEvent.type(screen.getByLabelText('Work e-mail'), 'nope');
    await userEvent.type(screen.getByLabelText('Password'), 'short');
    await submit();
    const name = screen.getByLabelText('Community name');
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription('Enter the name of your community.');
    expect(name).toHaveFocus();
    expect(screen.getByLabelText('First name')).toHaveAccessibleDescription('Enter your first name.');
    expect(screen.getByLabelText('Work e-mail')).toHaveAccessibleDescription('Enter a valid e-mail address.');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(
      'Use at least 10 characters. At least 10 characters.',
    );
    expect(screen.getByRole('checkbox', { name: /I accept the terms/ })).toHaveAccessibleDescription(
      'Accept the terms to continue.',
    );
    expect(callsTo('POST /v1/checkout')).toHaveLength(0);
  });

  test('busy while starting, then says to check the e-mail and keeps the secret in this browser', async () => {
    let release: (reply: Reply) => void = () => {};
    routes['POST /v1/checkout'] = () => new Promise<Reply>((resolve) => (release = resolve));
    renderCheckout('price_growup1_monthly');
    await screen.findByRole('heading', { name: 'Subscribe to GROW UP' });
    await fillForm();
    await submit();
    const button = screen.getByRole('button', { name: /Continue to payment/ });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(callsTo('POST /v1/checkout')[0]?.body).toEqual({
      price_id: 'price_growup1_monthly',
      tenant_name: 'Rocket Club',
      first_name: 'Rita',
      last_name: 'Rocket',
      email: 'rita@rocket.test',
      password: 'rocket-pass-2026',
    });
    await act(async () => release(ok({ message: 'Check your e-mail.', session_id: SESSION, secret: 's3cret' })));
    const heading = await screen.findByRole('heading', { name: 'Check your e-mail' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByRole('status')).toHaveTextContent(CHECKOUT_CHECK_MAIL('rita@rocket.test'));
    expect(screen.queryByRole('button', { name: /Continue to payment/ })).toBeNull();
    expect(navigation.assign).not.toHaveBeenCalled();
    expect(JSON.parse(window.localStorage.getItem('console-checkout') ?? 'null')).toEqual({
      sessionId: SESSION,
      secret: 's3cret',
    });
  });

  test('server field errors show under their fields', async () => {
    routes['POST /v1/checkout'] = () => ({
      status: 400,
      body: { message: 'Invalid input', errors: { tenant_name: ['Use at most 100 characters.'] } },
    });
    renderCheckout('price_growup1_monthly');
    await screen.findByRole('heading', { name: 'Subscribe to GROW UP' });
    await fillForm();
    await submit();
    const name = screen.getByLabelText('Community name');
    await waitFor(() => expect(name).toHaveAccessibleDescription('Use at most 100 characters.'));
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveFocus();
    expect(screen.queryByText('Invalid input')).toBeNull();
    expect(screen.getByRole('button', { name: /Continue to payment/ })).toBeEnabled();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
  });

  test('a server message without fields (rate limit) shows as an alert, as text', async () => {
    routes['POST /v1/checkout'] = () => ({
      status: 429,
      body: { message: 'Too many checkouts from here. <b>later</b>' },
    });
    renderCheckout('price_growup1_monthly');
    await screen.findByRole('heading', { name: 'Subscribe to GROW UP' });
    await fillForm();
    await submit();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Too many checkouts from here. <b>later</b>');
    expect(alert.querySelector('b')).toBeNull();
    expect(alert).toHaveFocus();
  });
});

describe('/checkout/success', () => {
  test('a paid checkout: signs the owner in once and welcomes them to the plan', async () => {
    rememberCheckout(SESSION, 's3cret');
    routes[`POST /v1/checkout/${SESSION}/complete`] = () => ok({ token: 'tok-new', checkout: SUMMARY });
    renderSuccess(`?session=${SESSION}`);
    const heading = await screen.findByRole('heading', { name: 'Welcome to GROW UP!' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(callsTo(`POST /v1/checkout/${SESSION}/complete`)).toHaveLength(1);
    expect(callsTo(`POST /v1/checkout/${SESSION}/complete`)[0]?.body).toEqual({ secret: 's3cret' });
    expect(callsTo('POST /v1/auth/verify')[0]?.body).toEqual({ token: 'tok-new' });
    expect(Cookies.get('token')).toBe('tok-new');
    expect(consoleStore.getState()).toMatchObject({ token: 'tok-new', user: { email: 'rita@rocket.test' } });
    const lines = within(screen.getByLabelText('Your subscription'));
    expect(lines.getByText('125.000 e-mails')).toBeInTheDocument();
    expect(lines.getByText('Monthly')).toBeInTheDocument();
    expect(lines.getByText('$242.50')).toBeInTheDocument();
    expect(lines.getByText('June 1, 2026')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to your console' })).toHaveAttribute('href', '/');
    expect(window.localStorage.getItem('console-checkout')).toBeNull();
  });

  test('used or too late (410): Sign in to continue, nobody signed in', async () => {
    rememberCheckout(SESSION, 's3cret');
    routes[`POST /v1/checkout/${SESSION}/complete`] = () => ({ status: 410, body: { message: 'gone' } });
    renderSuccess(`?session=${SESSION}`);
    expect(await screen.findByRole('alert')).toHaveTextContent('Sign in to continue.');
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    expect(Cookies.get('token')).toBeUndefined();
    expect(consoleStore.getState().user).toBeNull();
  });

  test('an unpaid checkout (409): says so and leads to sign-in', async () => {
    rememberCheckout(SESSION, 's3cret');
    routes[`POST /v1/checkout/${SESSION}/complete`] = () => ({ status: 409, body: { message: 'not paid' } });
    renderSuccess(`?session=${SESSION}`);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your payment has not been completed, so your subscription has not started. Sign in to continue.',
    );
  });

  test('no secret in this browser, or no session id: a message and a sign-in link, no request', async () => {
    const { unmount } = renderSuccess(`?session=${SESSION}`);
    expect(screen.getByRole('alert')).toHaveTextContent('Sign in to continue.');
    unmount();
    renderSuccess('');
    expect(screen.getByRole('alert')).toHaveTextContent('There is no checkout to confirm here. Sign in to continue.');
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    expect(calls).toHaveLength(0);
  });

  test('in the main layout without a session, which shows the header once the owner is signed in', async () => {
    rememberCheckout(SESSION, 's3cret');
    routes[`POST /v1/checkout/${SESSION}/complete`] = () => ok({ token: 'tok-new', checkout: SUMMARY });
    const router = createMemoryRouter(routeObjects(), { initialEntries: [`/checkout/success?session=${SESSION}`] });
    render(
      <QueryClientProvider client={client()}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    await screen.findByRole('heading', { name: 'Welcome to GROW UP!' });
    expect(await screen.findByRole('button', { name: /Rita Rocket profile menu/ })).toBeInTheDocument();
    expect(screen.getByTestId('desktop-sidebar')).toBeInTheDocument();
    // The guard let the public path through without verifying a session first.
    expect(callsTo('POST /v1/auth/verify')).toHaveLength(1);
  });
});
