import { render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { DEFAULT_CONFIG, setRuntimeConfig } from '@console/shared/config';
import type { PlatformDashboard as Dashboard } from '@console/shared/contracts';
import { consoleStore, type ConsoleUser } from '@console/shared/session';
import { MemoryRouter } from '@console/shared/router';
import { OverviewPage } from '../src/pages/overview';
import { sendersInOrder } from '../src/pages/platform-senders';

const DASHBOARD: Dashboard = {
  tenants_by_plan: [
    { key: 'basic', name: 'BASIC', tenants: 7 },
    { key: 'growup', name: 'GROW UP', tenants: 3 },
  ],
  new_tenants: [
    { date: '2026-11-25', value: 2 },
    { date: '2026-11-26', value: 1 },
  ],
  churned_tenants: [{ date: '2026-11-26', value: 1 }],
  mrr_cents: 250050,
  currency: 'USD',
  emails_sent: [
    { date: '2026-11-25', value: 1000 },
    { date: '2026-11-26', value: 500 },
  ],
  senders: [
    { tenant_id: 't1', tenant_name: 'Acme DAO', sent: 1200, bounce_rate: 0.01, complaint_rate: 0.0001, flagged: false },
    { tenant_id: 't2', tenant_name: 'Spam Inc', sent: 300, bounce_rate: 0.12, complaint_rate: 0.004, flagged: true },
  ],
};

function person(role: ConsoleUser['role'], permissions: ConsoleUser['permissions']): ConsoleUser {
  return {
    _id: 'u-admin',
    email: 'admin@console.test',
    role,
    permissions,
    features: [],
    tenant_id: role === 'super_admin' ? 't-platform' : null,
    tenant_name: role === 'super_admin' ? 'Console Platform' : null,
    first_name: 'Sam',
    last_name: 'Admin',
    avatar: null,
    time_zone: null,
    impersonator: null,
    is_impersonating: false,
    enableExperimentalFeatures: false,
  };
}

const calls: string[] = [];
function show(user: ConsoleUser) {
  setRuntimeConfig({ ...DEFAULT_CONFIG, gatewayUrl: 'http://gw.test' });
  calls.length = 0;
  globalThis.fetch = (async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    calls.push(url.pathname);
    const body = url.pathname === '/v1/admin/dashboard' ? DASHBOARD : { message: 'not here' };
    return new Response(JSON.stringify(body), {
      status: url.pathname === '/v1/admin/dashboard' ? 200 : 404,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof fetch;
  consoleStore.setState({ user, token: 't' });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <OverviewPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('the super admin Dashboard', () => {
  it('shows tenants by plan, MRR, e-mails per day and the senders with the flagged ones marked in text', async () => {
    show(person('super_admin', ['admin_tenants', 'admin_plans', 'admin_applets']));
    const board = await screen.findByTestId('platform-dashboard');
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome, Sam' })).toBeInTheDocument();
    expect(within(board).getByText('$2,500.50')).toBeInTheDocument();
    expect(within(board).getByRole('table', { name: 'Tenants by plan' })).toBeInTheDocument();
    expect(within(board).getByRole('figure', { name: 'E-mails sent per day, last 30 days' })).toBeInTheDocument();
    expect(within(board).getByRole('figure', { name: 'New and churned tenants, last 90 days' })).toBeInTheDocument();
    const senders = within(board).getByRole('table', { name: /Senders, last 30 days/ });
    const rows = within(senders).getAllByRole('row').slice(1);
    // The flagged sender comes first and says so in words.
    expect(rows[0]).toHaveTextContent(/Spam Inc.*300.*12%.*0.4%.*Flagged/);
    expect(rows[1]).toHaveTextContent(/Acme DAO.*1,200.*1%.*OK/);
    expect(within(board).getByText('Flagged senders').nextSibling).toHaveTextContent('1');
    // No tenant figures or tiles: the platform tenant is not what the super admin landed for.
    expect(calls).toEqual(['/v1/admin/dashboard']);
    expect(screen.queryByRole('heading', { name: 'Platform' })).toBeNull();
  });

  it('keeps the platform tiles for a global admin and fetches no dashboard', async () => {
    show(person('global_admin', ['admin_tenants', 'admin_plans', 'admin_applets']));
    expect(await screen.findByRole('heading', { name: 'Platform' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Tenants/ })).toHaveAttribute('href', '/tenants');
    expect(screen.queryByTestId('platform-dashboard')).toBeNull();
    expect(calls).toEqual([]);
  });

  it('orders flagged senders first, then by their rates', () => {
    const [ok, bad] = DASHBOARD.senders;
    expect(sendersInOrder([ok!, bad!]).map((s) => s.tenant_id)).toEqual(['t2', 't1']);
  });
});
