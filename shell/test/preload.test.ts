import { DEFAULT_CONFIG, type RuntimeConfig } from '@console/shared/config';
import { TENANT_PERMISSIONS } from '@console/shared/access';
import { pageToPreload } from '../src/remote-access';
import { ROUTES } from '../src/routes';

// Which remote page starts downloading while the guard verifies (shell/src/guard.ts): only pages the
// last verified user may open, and the admin remote only for platform admins.
const config: RuntimeConfig = {
  ...DEFAULT_CONFIG,
  remotes: {
    mfe_engagement: { entry: 'http://e.test/mf-manifest.json', audience: 'tenant' },
    mfe_onboarding: { entry: 'http://o.test/mf-manifest.json', audience: 'tenant' },
    mfe_advertising: { entry: 'http://a.test/mf-manifest.json', audience: 'tenant' },
    mfe_account: { entry: 'http://c.test/mf-manifest.json', audience: 'tenant' },
    mfe_admin: { entry: 'http://x.test/mf-manifest.json', audience: 'admin' },
  },
};
const route = (name: string) => {
  const r = ROUTES.find((x) => x.name === name);
  if (!r) throw new Error(name);
  return r;
};
type User = NonNullable<Parameters<typeof pageToPreload>[1]>;
const owner: User = {
  role: 'tenant_admin',
  permissions: [...TENANT_PERMISSIONS],
  features: ['manage_contacts', 'templates', 'automations'],
  is_impersonating: false,
  tenant_id: 't1',
};
const staff: User = { ...owner, role: 'staff', permissions: ['manage_contacts'] };
const superAdmin: User = {
  role: 'super_admin',
  permissions: ['admin_tenants', 'admin_plans', 'admin_applets'],
  features: [],
  is_impersonating: false,
  tenant_id: null,
};

test('a permitted remote route preloads its remote page', () => {
  expect(pageToPreload(route('engagement/contacts'), owner, config)).toEqual({
    remote: 'mfe_engagement',
    module: 'ContactsPage',
  });
  expect(pageToPreload(route('account/profile'), staff, config)).toEqual({
    remote: 'mfe_account',
    module: 'ProfilePage',
  });
});

test('nothing before a first verification, and nothing for shell pages', () => {
  expect(pageToPreload(route('engagement/contacts'), null, config)).toBeNull();
  expect(pageToPreload(route('overview'), owner, config)).toBeNull();
  expect(pageToPreload(route('login'), owner, config)).toBeNull();
});

test('a route the user may not open preloads nothing', () => {
  expect(pageToPreload(route('engagement/automations'), staff, config)).toBeNull();
  // Billing's header entry needs company_settings, and so does its page
  expect(pageToPreload(route('account/billing'), staff, config)).toBeNull();
  expect(pageToPreload(route('account/billing'), owner, config)).toEqual({
    remote: 'mfe_account',
    module: 'BillingPage',
  });
  // advertising paths need impersonation or super_admin even with the permission
  expect(pageToPreload(route('advertising/staking'), owner, config)).toBeNull();
  expect(pageToPreload(route('advertising/staking'), { ...owner, is_impersonating: true }, config)).toEqual({
    remote: 'mfe_advertising',
    module: 'StakingPage',
  });
});

test('tenant users never preload the admin remote, for any admin route', () => {
  for (const r of ROUTES.filter((x) => 'remote' in x.page && x.page.remote === 'mfe_admin')) {
    expect(pageToPreload(r, owner, config)).toBeNull();
    expect(pageToPreload(r, staff, config)).toBeNull();
    // an admin role without an admin permission is no platform admin
    expect(pageToPreload(r, { ...owner, role: 'super_admin' }, config)).toBeNull();
  }
});

test('a platform admin preloads the admin remote, and without a tenant only the pages they may open', () => {
  expect(pageToPreload(route('tenants'), superAdmin, config)).toEqual({ remote: 'mfe_admin', module: 'TenantsPage' });
  expect(pageToPreload(route('plans'), { ...superAdmin, permissions: ['admin_tenants'] }, config)).toBeNull();
  // Spec section 2: Your Profile and Change Password need no permission, nor a tenant.
  expect(pageToPreload(route('account/profile'), superAdmin, config)).toEqual({
    remote: 'mfe_account',
    module: 'ProfilePage',
  });
  expect(pageToPreload(route('account/change-password'), superAdmin, config)).toEqual({
    remote: 'mfe_account',
    module: 'ChangePasswordPage',
  });
  expect(pageToPreload(route('engagement/contacts'), superAdmin, config)).toBeNull();
});

test('a remote missing from the runtime config is not preloaded', () => {
  const { mfe_onboarding: _dropped, ...remotes } = config.remotes;
  expect(pageToPreload(route('onboarding/widgets'), owner, { ...config, remotes })).toBeNull();
});
