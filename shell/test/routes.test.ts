import fs from 'node:fs';
import path from 'node:path';
import { ROUTES, exposedModules, menuPermissionOf, type RemoteName, type RouteDef } from '../src/routes';
import { headerMenuFor, sidebarFor, type MenuLink, type MenuSubject } from '../src/menu';
import { remotesFor } from '../src/remote-access';
import { ADMIN_AREAS, TENANT_AREAS } from '../src/pages/overview';
import { DEFAULT_CONFIG } from '@console/shared/config';
import { FEATURES, isPublicPath, PERMISSIONS, type Permission, type Role } from '@console/shared/access';

// The remotes' webpack configs expose every src/pages/*-page.tsx; check against the route table.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { pageExposes } = require('../../shared/mf/index.cjs') as {
  pageExposes: (dir: string) => Record<string, string>;
};

const DIRS: Record<RemoteName, string> = {
  mfe_engagement: 'mfe-engagement',
  mfe_onboarding: 'mfe-onboarding',
  mfe_advertising: 'mfe-advertising',
  mfe_account: 'mfe-account',
  mfe_admin: 'mfe-admin',
};

describe('route table', () => {
  test('every spec route is present once', () => {
    const names = ROUTES.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining([
        'overview',
        'login',
        'reset request',
        'set new password',
        'confirm-email',
        'checkout success',
        'start checkout',
        'invitation',
        'engagement/contacts',
        'engagement/contacts/import',
        'engagement/lists',
        'engagement/list',
        'engagement/segments',
        'engagement/smart-contracts',
        'engagement/custom-attributes',
        'engagement/emails',
        'engagement/emails/compose',
        'engagement/emails/log',
        'engagement/automations',
        'engagement/automations/edit',
        'engagement/automations/log',
        'engagement/templates',
        'engagement/template-designer',
        'engagement/transactional-emails',
        'onboarding/widgets',
        'onboarding/community-page',
        'onboarding/sso',
        'advertising/emails',
        'advertising/emails/compose',
        'advertising/emails/log',
        'advertising/staking',
        'account/users',
        'account/profile',
        'account/change-password',
        'account/general-settings',
        'account/billing',
        'account/api-access',
        'account/custom-domains',
        'tenants',
        'plans',
        'applets',
      ]),
    );
  });
  test('layouts and meta of a few spec rows', () => {
    const by = (n: string) => ROUTES.find((r) => r.name === n);
    expect(by('engagement/emails/compose')).toMatchObject({ layout: 'bare' });
    expect(by('engagement/emails/compose')?.permission).toBeUndefined();
    expect(by('advertising/emails/log')).toMatchObject({
      layout: 'main',
      permission: 'send_advertising_emails',
      allowWhileImpersonating: true,
    });
    expect(by('engagement/template-designer')).toMatchObject({ layout: 'bare', permission: 'templates' });
    expect(by('checkout success')).toMatchObject({ layout: 'main' });
    expect(by('start checkout')).toMatchObject({ layout: 'bare' });
    expect(by('account/custom-domains')).toMatchObject({ permission: 'manage_domains' });
  });
  test('the invitation page: bare, a shell page, public (no session), no permission, in no menu', () => {
    const invitation = ROUTES.find((r) => r.name === 'invitation');
    expect(invitation).toMatchObject({
      path: '/invitation/:token',
      layout: 'bare',
      page: { shell: 'invitation' },
      menus: [],
    });
    expect(invitation?.permission).toBeUndefined();
    expect(isPublicPath('/invitation/some-token')).toBe(true);
  });
  test.each(Object.entries(DIRS))('%s exposes exactly the pages the routes load', (remote, dir) => {
    const exposes = Object.keys(pageExposes(path.join(__dirname, '..', '..', dir)))
      .map((k) => k.slice(2))
      .sort();
    expect(exposes).toEqual(exposedModules(remote as RemoteName).sort());
    expect(fs.existsSync(path.join(__dirname, '..', '..', dir, 'webpack.config.cjs'))).toBe(true);
  });
});

describe('the page registry drives the menus', () => {
  // Users who see every entry of each menu: an impersonating holder of every permission on a plan with
  // every feature (tenant sidebar and header), and a super admin (super-admin sidebar).
  const everything: MenuSubject = {
    role: 'tenant_admin',
    permissions: PERMISSIONS,
    features: FEATURES,
    is_impersonating: true,
    tenant_id: 't1',
  };
  const superAdmin: MenuSubject = { ...everything, role: 'super_admin', is_impersonating: false };
  const menus: [string, MenuLink[]][] = [
    ['tenant sidebar', (sidebarFor(everything, 'http://docs.test') ?? []).flatMap((g) => g.items)],
    ['super-admin sidebar', (sidebarFor(superAdmin, 'http://docs.test') ?? []).flatMap((g) => g.items)],
    ['header menu', headerMenuFor(everything)],
  ];

  test.each(menus)("every %s entry opens a registry page, with that page's menu permission", (menu, items) => {
    expect(items.length).toBeGreaterThan(0);
    for (const item of items.filter((i) => !i.external)) {
      const pages = ROUTES.filter((r) => r.path === item.to);
      expect(pages).toHaveLength(1);
      expect(item.to).not.toContain(':');
      const [page] = pages as [RouteDef];
      expect(page.menus.map((m) => m.label)).toContain(item.label);
      if (menu !== 'super-admin sidebar') expect(item.permission).toBe(menuPermissionOf(page));
    }
  });

  test('no two entries of one menu (or sidebar group) share an order', () => {
    for (const kind of ['sidebar', 'admin-sidebar', 'header'] as const) {
      const orders = ROUTES.flatMap((r) =>
        r.menus.filter((m) => m.menu === kind).map((m) => `${'group' in m ? m.group : ''}/${m.order}`),
      );
      expect(new Set(orders).size).toBe(orders.length);
    }
  });

  test('menu permissions as spec section 2 gives them (header: General Settings and Billing need company_settings)', () => {
    const permissionOf = (items: MenuLink[]) => Object.fromEntries(items.map((i) => [i.label, i.permission ?? null]));
    expect(permissionOf(headerMenuFor(everything))).toEqual({
      'Your Profile': null,
      'General Settings': 'company_settings',
      Billing: 'company_settings',
      'Custom Domains': 'manage_domains',
      'Manage Users': 'team_features',
      'API Access': 'api_access',
    });
    const onboarding = sidebarFor(everything, 'http://docs.test')?.find((g) => g.label === 'Onboarding');
    expect(permissionOf(onboarding?.items ?? [])).toEqual({
      'Community Page': 'manage_community',
      Widgets: 'manage_community',
    });
  });

  test('a page whose menu permission differs from its route row needs that permission too (the guard checks it)', () => {
    const differing = ROUTES.filter((r) => r.menuPermission !== undefined && r.menuPermission !== r.permission);
    expect(differing.map((r) => [r.name, r.menuPermission])).toEqual([
      ['account/general-settings', 'company_settings'],
      ['account/billing', 'company_settings'],
    ]);
  });
});

describe("the overview's area tiles", () => {
  // They follow the menu rule too (locked or hidden): each opens a registry page with its menu permission.
  test.each([...TENANT_AREAS, ...ADMIN_AREAS].map((a) => [a.title, a] as const))('%s', (_title, area) => {
    const page = ROUTES.find((r) => r.path === area.to);
    expect(page).toBeDefined();
    expect(area.permission).toBe(page && menuPermissionOf(page));
  });
});

describe('every remote page in the registry is a page file its remote exposes', () => {
  const kebab = (module: string) => module.replace(/[A-Z]/g, (c, i: number) => (i ? '-' : '') + c.toLowerCase());
  test.each(ROUTES.filter((r) => 'remote' in r.page).map((r) => [r.name, r.page] as const))('%s', (_name, page) => {
    if (!('remote' in page)) throw new Error('not a remote page');
    const file = path.join(__dirname, '..', '..', DIRS[page.remote], 'src', 'pages', `${kebab(page.module)}.tsx`);
    expect(fs.existsSync(file)).toBe(true);
    expect(pageExposes(path.join(__dirname, '..', '..', DIRS[page.remote]))[`./${page.module}`]).toBe(
      `./src/pages/${path.basename(file)}`,
    );
  });
});

describe('which remotes a user downloads', () => {
  const config = {
    ...DEFAULT_CONFIG,
    remotes: {
      mfe_engagement: { entry: 'http://e/mf-manifest.json', audience: 'tenant' as const },
      mfe_account: { entry: 'http://c/mf-manifest.json', audience: 'tenant' as const },
      mfe_admin: { entry: 'http://a/mf-manifest.json', audience: 'admin' as const },
    },
  };
  const subject = (role: Role, permissions: Permission[]) => ({
    role,
    permissions,
    features: [],
    is_impersonating: false,
  });
  const names = (user: ReturnType<typeof subject>) => remotesFor(user, config).map((r) => r.name);
  test('tenant staff never get the admin remote', () => {
    expect(names(subject('staff', ['manage_contacts']))).toEqual(['mfe_engagement', 'mfe_account']);
  });
  test('super admin (tenant + admin permissions) gets the areas of the pages they open, and the admin remote', () => {
    expect(names(subject('super_admin', ['admin_tenants', 'manage_contacts']))).toEqual([
      'mfe_engagement',
      'mfe_account',
      'mfe_admin',
    ]);
  });
  // Spec section 2: Your Profile and Change Password need no permission, so the account area loads
  // for a global admin, who has no tenant (and so does the e-mail compose page's area).
  test('global admin (no tenant) gets the areas of the pages they may open and the admin remote', () => {
    expect(names(subject('global_admin', ['admin_plans']))).toEqual(['mfe_engagement', 'mfe_account', 'mfe_admin']);
  });
  test('a remote with no page the user may open is not registered', () => {
    const onlyAdmin = { ...config, remotes: { mfe_admin: config.remotes.mfe_admin } };
    expect(remotesFor(subject('staff', ['admin_plans']), onlyAdmin).map((r) => r.name)).toEqual(['mfe_admin']);
    expect(remotesFor(subject('staff', []), onlyAdmin)).toEqual([]);
    const onboarding = { ...config, remotes: { mfe_onboarding: { entry: 'http://o', audience: 'tenant' as const } } };
    expect(remotesFor(subject('staff', ['manage_contacts']), onboarding)).toEqual([]);
    expect(remotesFor(subject('staff', ['manage_community']), onboarding).map((r) => r.name)).toEqual([
      'mfe_onboarding',
    ]);
  });
});
