import {
  PLAN_FEATURES,
  TENANT_PERMISSIONS,
  effectivePermissions,
  type Permission,
  type Role,
} from '@console/shared/access';
import { headerMenuFor, sidebarFor, type MenuSubject } from '../src/menu';

const DOCS = 'http://gw/docs';
function tenantUser(
  plan: keyof typeof PLAN_FEATURES,
  granted: readonly Permission[],
  over: Partial<MenuSubject> = {},
): MenuSubject {
  const features = PLAN_FEATURES[plan];
  return {
    role: 'tenant_admin',
    permissions: effectivePermissions(granted, features),
    features,
    is_impersonating: false,
    tenant_id: 't1',
    ...over,
  };
}
const labels = (user: MenuSubject) =>
  (sidebarFor(user, DOCS) ?? []).map((g) => [
    g.label,
    g.items.map((i) => (i.state === 'locked' ? `${i.label} (locked)` : i.label)),
  ]);

describe('sidebar per role and plan', () => {
  test('START UP owner: onboarding widgets, all engagement, no advertising, docs', () => {
    expect(labels(tenantUser('startup', TENANT_PERMISSIONS))).toEqual([
      [null, ['Overview']],
      ['Onboarding', ['Widgets']],
      [
        'Engagement',
        [
          'Contacts',
          'Lists',
          'Segments',
          'E-mails',
          'Templates',
          'Custom Attributes',
          'Automations',
          'Smart Contracts',
          'Transactional E-mails',
        ],
      ],
      [null, ['Developer Docs']],
    ]);
  });
  test('BASIC owner: automations and transactional e-mails locked', () => {
    const engagement = labels(tenantUser('basic', TENANT_PERMISSIONS)).find(([l]) => l === 'Engagement');
    expect(engagement?.[1]).toEqual(
      expect.arrayContaining(['Automations (locked)', 'Transactional E-mails (locked)', 'Contacts']),
    );
  });
  test('staff with manage_contacts and view_engagement_emails on START UP: the rest hidden, no onboarding', () => {
    expect(labels(tenantUser('startup', ['manage_contacts', 'view_engagement_emails'], { role: 'staff' }))).toEqual([
      [null, ['Overview']],
      ['Engagement', ['Contacts', 'Lists', 'Segments', 'E-mails']],
      [null, ['Developer Docs']],
    ]);
  });
  test('staff on BASIC sees plan-missing features locked', () => {
    const eng = labels(tenantUser('basic', ['manage_contacts'], { role: 'staff' })).find(([l]) => l === 'Engagement');
    expect(eng?.[1]).toEqual([
      'Contacts',
      'Lists',
      'Segments',
      'Automations (locked)',
      'Transactional E-mails (locked)',
    ]);
  });
  test('impersonating: Community Page and the advertising E-mails entry appear; locked without the feature', () => {
    const l = labels(tenantUser('startup', TENANT_PERMISSIONS, { is_impersonating: true }));
    expect(l).toContainEqual(['Onboarding', ['Community Page', 'Widgets']]);
    expect(l).toContainEqual(['Advertising', ['E-mails (locked)']]);
  });
  test('impersonating a SCALE UP owner: advertising E-mails unlocked', () => {
    expect(labels(tenantUser('scaleup', TENANT_PERMISSIONS, { is_impersonating: true }))).toContainEqual([
      'Advertising',
      ['E-mails'],
    ]);
  });
  test('super admin sidebar', () => {
    const user: MenuSubject = {
      role: 'super_admin',
      permissions: [],
      features: [],
      is_impersonating: false,
      tenant_id: 'p',
    };
    expect(labels(user)).toEqual([
      [null, ['Dashboard', 'Engagement', 'Advertising', 'Transactional', 'Tenants', 'Templates', 'Plans', 'Applets']],
    ]);
  });
  test('global admin: no sidebar at all', () => {
    const user: MenuSubject = {
      role: 'global_admin' as Role,
      permissions: ['admin_tenants'],
      features: [],
      is_impersonating: false,
      tenant_id: null,
    };
    expect(sidebarFor(user, DOCS)).toBeNull();
  });
  test('developer docs link points at the gateway reference', () => {
    const groups = sidebarFor(tenantUser('basic', TENANT_PERMISSIONS), DOCS) ?? [];
    expect(groups.at(-1)?.items[0]).toMatchObject({ label: 'Developer Docs', to: DOCS, external: true });
  });
});

describe('header menu', () => {
  const names = (u: MenuSubject) =>
    headerMenuFor(u).map((i) => (i.state === 'locked' ? `${i.label} (locked)` : i.label));
  test('START UP owner', () => {
    expect(names(tenantUser('startup', TENANT_PERMISSIONS))).toEqual([
      'Your Profile',
      'General Settings',
      'Billing',
      'Custom Domains (locked)',
      'Manage Users (locked)',
      'API Access (locked)',
    ]);
  });
  test('GROW UP owner: everything open', () => {
    expect(names(tenantUser('growup', TENANT_PERMISSIONS))).toEqual([
      'Your Profile',
      'General Settings',
      'Billing',
      'Custom Domains',
      'Manage Users',
      'API Access',
    ]);
  });
  test('staff without company_settings: no General Settings or Billing', () => {
    expect(names(tenantUser('growup', ['manage_contacts'], { role: 'staff' }))).toEqual(['Your Profile']);
  });
  test('no tenant: no account entries', () => {
    expect(
      names({ role: 'global_admin', permissions: [], features: [], is_impersonating: false, tenant_id: null }),
    ).toEqual([]);
  });
});
