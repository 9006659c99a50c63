/** Data and a render for the tenants screen's tests (the shared fake gateway answers the calls). */
import { useLocation } from '@console/shared/router';
import type { Tenant, TenantOptions, TenantStats } from '@console/shared/contracts';
import TenantsPage from '../src/pages/tenants-page';
import { renderPage } from './admin-kit';
import { pageOf } from '../../jest/fake-gateway';

export { pageOf };

export function makeTenant(n: number, overrides: Partial<Tenant> = {}): Tenant {
  const owner = {
    _id: `u${n}`,
    email: `owner${n}@t${n}.test`,
    first_name: `Owner${n}`,
    last_name: 'Person',
    role: 'tenant_admin' as const,
    preset: 'owner' as const,
  };
  return {
    _id: `t${n}`,
    name: `Tenant ${n}`,
    plan: { _id: 'p-startup', key: 'startup', name: 'START UP' },
    stripe_customer_id: null,
    last_warning_sent_date: null,
    last_limit_sent_date: null,
    created_at: '2026-03-01T10:00:00.000Z',
    owner,
    users: [
      owner,
      {
        _id: `s${n}`,
        email: `staff${n}@t${n}.test`,
        first_name: 'Sam',
        last_name: 'Staff',
        role: 'staff',
        preset: 'member',
      },
    ],
    admin: {
      contacts: 100 * n,
      emails_sent: 1200 * n,
      email_volume: 60000,
      billing_state: 'active',
      settings: {
        tax_rate: 21,
        email_volume_override: null,
        enabled_applets: [],
        billing_customer_id: 'cus_1',
        sending_paused: false,
      },
    },
    ...overrides,
  };
}

export const OPTIONS: TenantOptions = {
  plans: [
    { value: 'basic', label: 'BASIC' },
    { value: 'startup', label: 'START UP' },
  ],
  billing_states: [
    { value: 'active', label: 'Active' },
    { value: 'past_due', label: 'Past due' },
  ],
  date_ranges: [
    { value: 'all_time', label: 'All time' },
    { value: 'last_30_days', label: 'Last 30 days' },
    { value: 'custom', label: 'Custom range' },
  ],
  lists: [{ value: 'l1', label: 'Community owners' }],
};

export const STATS: TenantStats = {
  tenants: 42,
  by_plan: [
    { key: 'basic', name: 'BASIC', tenants: 30 },
    { key: 'startup', name: 'START UP', tenants: 12 },
  ],
  new_tenants: [
    { date: '2026-03-01', value: 2 },
    { date: '2026-03-02', value: 1 },
  ],
  contacts: 12345,
  emails_sent: 67890,
  mrr_cents: 123450,
  currency: 'USD',
};

export const PLANS = [
  { key: 'basic', name: 'BASIC' },
  { key: 'startup', name: 'START UP' },
].map(({ key, name }) => ({ _id: `p-${key}`, key, name, label: name, features: [], grants: [], pricing: [] }));

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

export function renderTenants(url = '/tenants') {
  return renderPage(
    <>
      <TenantsPage />
      <LocationProbe />
    </>,
    url,
  );
}
