import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from '@console/shared/router';
import { PLAN_FEATURES, TENANT_PERMISSIONS, effectivePermissions } from '@console/shared/access';
import { consoleStore, navigation, type ConsoleUser } from '@console/shared/session';
import { DEFAULT_CONFIG, setRuntimeConfig } from '@console/shared/config';
import { Header } from '../src/components/header';

const owner = (over: Partial<ConsoleUser> = {}): ConsoleUser => ({
  _id: 'u1',
  email: 'owner@acme.test',
  role: 'tenant_admin',
  permissions: effectivePermissions(TENANT_PERMISSIONS, PLAN_FEATURES.startup),
  features: [...PLAN_FEATURES.startup],
  tenant_id: 't1',
  tenant_name: 'Acme DAO',
  first_name: 'Ada',
  last_name: 'Owner',
  avatar: null,
  time_zone: null,
  impersonator: null,
  is_impersonating: false,
  enableExperimentalFeatures: false,
  ...over,
});
const renderHeader = () =>
  render(
    <MemoryRouter>
      <Header onOpenSidebar={() => {}} />
    </MemoryRouter>,
  );

type Reply = { status: number; body: unknown };
let routes: Record<string, (body: unknown) => Reply> = {};
let calls: { route: string; body: unknown }[] = [];
let visited: string[] = [];
const ACME = { tenant_id: 't1', tenant_name: 'Acme DAO', role: 'tenant_admin', current: true };
const LAB = { tenant_id: 't2', tenant_name: 'Lab Rats', role: 'staff', current: false };

beforeAll(() => setRuntimeConfig({ ...DEFAULT_CONFIG, gatewayUrl: 'http://gw.test' }));
beforeEach(() => {
  consoleStore.setState({ user: owner(), busy: false, upgrade: { open: false, feature: null } });
  calls = [];
  visited = [];
  navigation.assign = (url) => void visited.push(url);
  routes = { 'GET /v1/auth/communities': () => ({ status: 200, body: { records: [ACME] } }) };
  globalThis.fetch = (async (input: Request | string | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const route = `${request.method} ${new URL(request.url).pathname}`;
    const text = await request.text();
    const body = text ? (JSON.parse(text) as unknown) : undefined;
    calls.push({ route, body });
    const reply = routes[route]?.(body) ?? { status: 404, body: { message: route } };
    return new Response(JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof fetch;
});

test('shows first and last name when not impersonating', () => {
  renderHeader();
  expect(screen.getByText('Ada Owner')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Stop Impersonating' })).toBeNull();
});

test('while impersonating: Stop Impersonating and the tenant name', () => {
  consoleStore.setState({ user: owner({ is_impersonating: true }) });
  renderHeader();
  expect(screen.getByRole('button', { name: 'Stop Impersonating' })).toBeInTheDocument();
  expect(screen.getByTestId('tenant-name')).toHaveTextContent('Acme DAO');
  expect(screen.queryByText('Ada Owner')).toBeNull();
});

test('profile menu: entries by permission and plan, locked ones open the upgrade dialog, Escape closes', async () => {
  renderHeader();
  await userEvent.click(screen.getByRole('button', { name: /profile menu/i }));
  const menu = await screen.findByRole('menu');
  const names = within(menu)
    .getAllByRole('menuitem')
    .map((i) => i.textContent?.trim());
  expect(names).toEqual([
    'Your Profile',
    'General Settings',
    'Billing',
    'Custom Domains',
    'Manage Users',
    'API Access',
    'Sign Out',
  ]);
  expect(menu).toHaveStyle({ width: '170px' });
  await userEvent.click(within(menu).getByRole('menuitem', { name: /Custom Domains/ }));
  expect(consoleStore.getState().upgrade).toEqual({ open: true, feature: 'custom_domains' });
  await userEvent.click(screen.getByRole('button', { name: /profile menu/i }));
  await screen.findByRole('menu');
  await userEvent.keyboard('{Escape}');
  expect(screen.queryByRole('menu')).toBeNull();
});

test('staff without company_settings: no General Settings or Billing', async () => {
  consoleStore.setState({ user: owner({ role: 'staff', permissions: ['manage_contacts', 'view_engagement_emails'] }) });
  renderHeader();
  await userEvent.click(screen.getByRole('button', { name: /profile menu/i }));
  const names = within(await screen.findByRole('menu'))
    .getAllByRole('menuitem')
    .map((i) => i.textContent?.trim());
  expect(names).not.toContain('General Settings');
  expect(names).not.toContain('Billing');
  expect(names).toContain('Sign Out');
});

test('one community: no switcher', async () => {
  renderHeader();
  await waitFor(() => expect(calls.map((c) => c.route)).toEqual(['GET /v1/auth/communities']));
  expect(screen.queryByRole('button', { name: /Community:/ })).toBeNull();
});

test('several communities: the switcher signs in to the chosen one and opens its overview', async () => {
  routes['GET /v1/auth/communities'] = () => ({ status: 200, body: { records: [ACME, LAB] } });
  routes['POST /v1/auth/switch'] = () => ({ status: 200, body: { token: 'lab-token' } });
  routes['POST /v1/auth/verify'] = () => ({
    status: 200,
    body: { user: { ...owner(), tenant_id: 't2', tenant_name: 'Lab Rats', role: 'staff' } },
  });
  const user = userEvent.setup({ delay: null });
  renderHeader();
  const trigger = await screen.findByRole('button', { name: 'Community: Acme DAO' });
  await user.click(trigger);
  const menu = screen.getByRole('menu');
  expect(within(menu).getByText('Switch community')).toBeInTheDocument();
  expect(
    within(menu)
      .getAllByRole('menuitem')
      .map((i) => i.textContent),
  ).toEqual(['Lab Rats']);
  await user.keyboard('{Escape}');
  expect(screen.queryByRole('menu')).toBeNull();
  await user.click(trigger);
  await user.click(screen.getByRole('menuitem', { name: 'Lab Rats' }));
  await waitFor(() => expect(visited).toEqual(['/']));
  expect(calls.find((c) => c.route === 'POST /v1/auth/switch')?.body).toEqual({ tenant_id: 't2' });
  expect(consoleStore.getState().token).toBe('lab-token');
});

test('no switcher while impersonating, and no request for it', () => {
  consoleStore.setState({ user: owner({ is_impersonating: true }) });
  renderHeader();
  expect(calls).toEqual([]);
});
