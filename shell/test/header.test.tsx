import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from '@console/shared/router';
import { PLAN_FEATURES, TENANT_PERMISSIONS, effectivePermissions } from '@console/shared/access';
import { consoleStore, type ConsoleUser } from '@console/shared/session';
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

beforeEach(() => consoleStore.setState({ user: owner(), busy: false, upgrade: { open: false, feature: null } }));

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
