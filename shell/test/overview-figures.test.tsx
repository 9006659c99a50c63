import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { DEFAULT_CONFIG, setRuntimeConfig } from '@console/shared/config';
import { TENANT_PERMISSIONS, effectivePermissions, type Feature } from '@console/shared/access';
import type { Overview } from '@console/shared/contracts';
import type { ConsoleUser } from '@console/shared/session';
import { OverviewFigures, ratePercent, usageTone } from '../src/pages/overview-figures';

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

const stats = (open: number, click: number) => ({
  recipients: 1000,
  sent: 1000,
  delivered: 1000,
  bounced: 0,
  failed: 0,
  unconfirmed: 0,
  opened: Math.round(open * 1000),
  clicked: Math.round(click * 1000),
  unsubscribed: 0,
  complained: 0,
  open_rate: open,
  click_rate: click,
});

const OVERVIEW: Overview = {
  contacts: {
    total: 1234,
    by_source: [
      { source: 'import', count: 1000 },
      { source: 'widget', count: 200 },
      { source: 'api', count: 0 },
      { source: 'manual', count: 34 },
    ],
    days: [
      { day: '2026-11-25', added: 4, removed: 0, total: 1230 },
      { day: '2026-11-26', added: 5, removed: 1, total: 1234 },
    ],
  },
  campaigns: [
    { _id: 'c1', name: 'November news', status: 'sent', at: '2026-11-20T10:00:00Z', stats: stats(0.425, 0.06) },
  ],
  usage: {
    period_start: '2026-11-01T00:00:00.000Z',
    period_end: '2026-12-01T00:00:00.000Z',
    sent: 8500,
    reserved: 0,
    limit: 10000,
    warning_at: 8000,
  },
};

function show(features: Feature[]) {
  setRuntimeConfig({ ...DEFAULT_CONFIG, gatewayUrl: 'http://gw.test' });
  globalThis.fetch = (async () =>
    new Response(JSON.stringify(OVERVIEW), { headers: { 'content-type': 'application/json' } })) as typeof fetch;
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <OverviewFigures user={user(features)} />
    </QueryClientProvider>,
  );
}

describe('overview figures', () => {
  it('writes rates as percentages and turns the usage bar red from the warning mark', () => {
    expect(ratePercent(0.425)).toBe('42.5%');
    expect(ratePercent(0)).toBe('0%');
    expect(usageTone(7999, 10000, 8000)).toBe('brand');
    expect(usageTone(8000, 10000, 8000)).toBe('danger');
    expect(usageTone(0, 0, 0)).toBe('brand');
  });

  it('shows contacts, sources, usage and the last campaigns to a user with both screens', async () => {
    show(['manage_contacts', 'view_engagement_emails']);
    expect(await screen.findByTestId('overview-contacts')).toHaveTextContent('1,234');
    const sources = screen.getByRole('table', { name: 'Contacts by source' });
    expect(within(sources).getByRole('row', { name: /Imported.*1,000/ })).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'E-mails sent this period' })).toHaveAttribute(
      'aria-valuetext',
      '8,500 of 10,000 e-mails',
    );
    const opens = screen.getByRole('table', { name: 'Open rate of the last campaigns' });
    expect(within(opens).getByRole('row', { name: /November news.*42.5%/ })).toBeInTheDocument();
  });

  it('offers the contacts chart as a table with the daily figures', async () => {
    show(['manage_contacts']);
    await userEvent.click(await screen.findByRole('button', { name: 'Show as table' }));
    const table = screen.getByRole('table', { name: 'Contacts over the last 90 days' });
    expect(within(table).getByRole('row', { name: /November 26, 2026.*1,234.*5/ })).toBeInTheDocument();
  });

  it('shows each part only with the permission of its screen', async () => {
    show([]);
    expect(await screen.findByRole('progressbar', { name: 'E-mails sent this period' })).toBeInTheDocument();
    expect(screen.queryByTestId('overview-contacts')).toBeNull();
    expect(screen.queryByRole('table', { name: 'Open rate of the last campaigns' })).toBeNull();
  });
});
