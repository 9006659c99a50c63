import {
  accessDecision,
  canAccess,
  hasExperimentalFeatures,
  isPublicPath,
  menuItemState,
  type AccessSubject,
  type RouteMeta,
} from './rules';
import {
  effectivePermissions,
  featureForPermission,
  PLAN_FEATURES,
  TENANT_PERMISSIONS,
  type Permission,
} from './vocabulary';

const subject = (over: Partial<AccessSubject> = {}): AccessSubject => ({
  role: 'staff',
  permissions: [],
  features: [],
  is_impersonating: false,
  ...over,
});
const r = (name: string, path: string, meta: Partial<RouteMeta> = {}): RouteMeta => ({ name, path, ...meta });

describe('canAccess: spec section 5, row by row', () => {
  const contacts = r('engagement/contacts', '/engagement/contacts', { permission: 'manage_contacts' });
  const adLog = r('advertising/emails/log', '/advertising/emails/log/:id', {
    permission: 'send_advertising_emails',
    allowWhileImpersonating: true,
  });
  const adEmails = r('advertising/emails', '/advertising/emails', { permission: 'view_advertising_emails' });
  const adCompose = r('advertising/emails/compose', '/advertising/emails/compose/:id?');
  const overview = r('overview', '/');

  test.each<[string, RouteMeta, AccessSubject, boolean]>([
    ['route without permission', overview, subject(), true],
    ['user holds the permission', contacts, subject({ permissions: ['manage_contacts'] }), true],
    ['user lacks the permission', contacts, subject(), false],
    [
      'impersonation allowed and impersonating',
      r('x', '/x', { permission: 'team_features', allowWhileImpersonating: true }),
      subject({ is_impersonating: true }),
      true,
    ],
    [
      'impersonation allowed but not impersonating',
      r('x', '/x', { permission: 'team_features', allowWhileImpersonating: true }),
      subject(),
      false,
    ],
    ['impersonating without allowWhileImpersonating', contacts, subject({ is_impersonating: true }), false],
    ['advertising log, super_admin without permission', adLog, subject({ role: 'super_admin' }), true],
    ['advertising log, impersonating tenant user', adLog, subject({ is_impersonating: true }), true],
    [
      'advertising log, tenant user with permission, not impersonating',
      adLog,
      subject({ permissions: ['send_advertising_emails'] }),
      false,
    ],
    ['super_admin exception is only for the log route', adEmails, subject({ role: 'super_admin' }), false],
    [
      'advertising path, permission + impersonating',
      adEmails,
      subject({ permissions: ['view_advertising_emails'], is_impersonating: true }),
      true,
    ],
    [
      'advertising path, permission + super_admin',
      adEmails,
      subject({ role: 'super_admin', permissions: ['view_advertising_emails'] }),
      true,
    ],
    ['advertising path, permission only', adEmails, subject({ permissions: ['view_advertising_emails'] }), false],
    [
      'advertising path, permission + allowTenant',
      { ...adEmails, allowTenant: true },
      subject({ permissions: ['view_advertising_emails'] }),
      true,
    ],
    ['advertising path without permission, tenant user', adCompose, subject(), false],
    ['advertising path without permission, impersonating', adCompose, subject({ is_impersonating: true }), true],
    ['a non-advertising path that starts with the word', r('x', '/advertisingx', {}), subject(), true],
  ])('%s', (_label, route, user, expected) => {
    expect(canAccess(route, user)).toBe(expected);
  });
});

describe('accessDecision', () => {
  test('a permission whose feature the plan lacks asks for an upgrade', () => {
    const route = r('engagement/automations', '/engagement/automations', { permission: 'automations' });
    expect(accessDecision(route, subject({ features: ['manage_contacts'] }))).toEqual({
      allowed: false,
      upgrade: 'automations',
    });
  });
  test('custom domains map to the custom_domains feature', () => {
    const route = r('account/custom-domains', '/account/custom-domains', { permission: 'manage_domains' });
    expect(accessDecision(route, subject())).toEqual({ allowed: false, upgrade: 'custom_domains' });
  });
  test('plan has the feature but the user lacks the permission: plain denial', () => {
    const route = r('engagement/automations', '/engagement/automations', { permission: 'automations' });
    expect(accessDecision(route, subject({ features: ['automations'] }))).toEqual({ allowed: false, upgrade: null });
  });
  test('a permission no feature gates: plain denial', () => {
    const route = r('tenants', '/tenants', { permission: 'admin_tenants' });
    expect(accessDecision(route, subject())).toEqual({ allowed: false, upgrade: null });
  });
  test('allowed', () => {
    expect(accessDecision(r('overview', '/'), subject())).toEqual({ allowed: true });
  });
});

describe("menuPermission: what a page's menu entry needs besides its route row", () => {
  const billing = r('account/billing', '/account/billing', { menuPermission: 'company_settings' });
  test('held: allowed', () => {
    expect(accessDecision(billing, subject({ permissions: ['company_settings'] }))).toEqual({ allowed: true });
  });
  test('missing and not a plan feature: plain denial', () => {
    expect(canAccess(billing, subject())).toBe(false);
    expect(accessDecision(billing, subject())).toEqual({ allowed: false, upgrade: null });
  });
  test('missing and a feature the plan lacks: the upgrade dialog for that feature', () => {
    const gated = r('x', '/x', { menuPermission: 'api_access' });
    expect(accessDecision(gated, subject())).toEqual({ allowed: false, upgrade: 'api_access' });
  });
  test('the route row is checked first: its own missing feature is the one offered', () => {
    const both = r('x', '/x', { permission: 'automations', menuPermission: 'api_access' });
    expect(accessDecision(both, subject())).toEqual({ allowed: false, upgrade: 'automations' });
  });
  test('impersonation does not waive it (no allowWhileImpersonating for the menu permission)', () => {
    expect(canAccess({ ...billing, allowWhileImpersonating: true }, subject({ is_impersonating: true }))).toBe(false);
  });
});

describe('menuItemState: spec section 6', () => {
  test.each<[string, Permission | undefined, AccessSubject, string]>([
    ['no permission needed', undefined, subject(), 'shown'],
    [
      'plan has feature, user has permission',
      'automations',
      subject({ features: ['automations'], permissions: ['automations'] }),
      'shown',
    ],
    ['plan has feature, user lacks permission', 'automations', subject({ features: ['automations'] }), 'hidden'],
    ['plan lacks feature (user lacks permission)', 'automations', subject(), 'locked'],
    [
      'plan lacks feature even if permission was granted',
      'automations',
      subject({ permissions: ['automations'] }),
      'locked',
    ],
    ['ungated permission held', 'manage_community', subject({ permissions: ['manage_community'] }), 'shown'],
    ['ungated permission missing', 'manage_community', subject(), 'hidden'],
    [
      'custom domains locked by custom_domains feature',
      'manage_domains',
      subject({ permissions: ['manage_domains'] }),
      'locked',
    ],
    [
      'custom domains shown with the feature',
      'manage_domains',
      subject({ permissions: ['manage_domains'], features: ['custom_domains'] }),
      'shown',
    ],
  ])('%s', (_l, permission, user, expected) => {
    expect(menuItemState(permission, user)).toBe(expected);
  });
});

describe('public paths (spec section 2)', () => {
  test.each([
    ['/login', true],
    ['/reset', true],
    ['/reset/abc/def', true],
    ['/confirm-email', true],
    ['/checkout/price_123', true],
    ['/checkout/success', true],
    ['/invitation/some-token', true],
    ['/sign-in/u1/some-token', true],
    ['/sign-in', false],
    ['/invitations', false],
    ['/', false],
    ['/loginx', false],
    ['/engagement/contacts', false],
  ])('%s -> %s', (path, expected) => expect(isPublicPath(path)).toBe(expected));
});

describe('vocabulary', () => {
  test('plans grow by their features', () => {
    expect(PLAN_FEATURES.basic).toEqual([
      'manage_contacts',
      'view_engagement_emails',
      'templates',
      'custom_attributes',
      'monitor_smart_contracts',
    ]);
    expect(PLAN_FEATURES.startup).toEqual([...PLAN_FEATURES.basic, 'automations', 'transactional_emails']);
    expect(PLAN_FEATURES.growup).toEqual([...PLAN_FEATURES.startup, 'team_features', 'api_access', 'custom_domains']);
    expect(PLAN_FEATURES.scaleup).toEqual([...PLAN_FEATURES.growup, 'view_advertising_emails']);
  });
  test('effective permissions drop feature-gated permissions the plan lacks', () => {
    const eff = effectivePermissions(TENANT_PERMISSIONS, PLAN_FEATURES.basic);
    expect(eff).toContain('manage_contacts');
    expect(eff).toContain('company_settings');
    expect(eff).not.toContain('automations');
    expect(eff).not.toContain('manage_domains');
  });
  test('featureForPermission', () => {
    expect(featureForPermission('manage_domains')).toBe('custom_domains');
    expect(featureForPermission('templates')).toBe('templates');
    expect(featureForPermission('company_settings')).toBeNull();
  });
  test('experimental prefix is case-insensitive', () => {
    expect(hasExperimentalFeatures('Lab Rats', 'lab')).toBe(true);
    expect(hasExperimentalFeatures('LABORATORY', 'lab')).toBe(true);
    expect(hasExperimentalFeatures('Acme DAO', 'lab')).toBe(false);
    expect(hasExperimentalFeatures(null, 'lab')).toBe(false);
  });
});
