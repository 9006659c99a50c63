import fs from 'node:fs';
import path from 'node:path';
import { ROUTES, exposedModules, type RemoteName } from '../src/routes';
import { remotesFor } from '../src/remote-access';
import { DEFAULT_CONFIG } from '@console/shared/config';

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
  test.each(Object.entries(DIRS))('%s exposes exactly the pages the routes load', (remote, dir) => {
    const exposes = Object.keys(pageExposes(path.join(__dirname, '..', '..', dir)))
      .map((k) => k.slice(2))
      .sort();
    expect(exposes).toEqual(exposedModules(remote as RemoteName).sort());
    expect(fs.existsSync(path.join(__dirname, '..', '..', dir, 'webpack.config.cjs'))).toBe(true);
  });
});

describe('which remotes a user downloads', () => {
  const config = {
    ...DEFAULT_CONFIG,
    remotes: {
      mfe_engagement: { entry: 'http://e/mf-manifest.json', audience: 'tenant' as const },
      mfe_admin: { entry: 'http://a/mf-manifest.json', audience: 'admin' as const },
    },
  };
  test('tenant staff never get the admin remote', () => {
    expect(remotesFor({ tenant_id: 't', permissions: ['manage_contacts'] }, config).map((r) => r.name)).toEqual([
      'mfe_engagement',
    ]);
  });
  test('super admin (tenant + admin permissions) gets both', () => {
    expect(remotesFor({ tenant_id: 't', permissions: ['admin_tenants'] }, config).map((r) => r.name)).toEqual([
      'mfe_engagement',
      'mfe_admin',
    ]);
  });
  test('global admin (no tenant) gets only the admin remote', () => {
    expect(remotesFor({ tenant_id: null, permissions: ['admin_plans'] }, config).map((r) => r.name)).toEqual([
      'mfe_admin',
    ]);
  });
});
