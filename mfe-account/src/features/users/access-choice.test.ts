import { PLAN_FEATURES, TENANT_PERMISSIONS, type Permission } from '@console/shared/access';
import {
  NOT_YOURSELF,
  NO_PERMISSION_CHOSEN,
  OWNER_ONLY,
  accessBody,
  checkAccess,
  compactPermissions,
  customChoices,
  customStart,
  presetChoices,
  rowActions,
  type AccessGranter,
  type TeamViewer,
} from './access-choice';

const growup = PLAN_FEATURES.growup;
const owner: AccessGranter = { role: 'tenant_admin', permissions: [...TENANT_PERMISSIONS], features: growup };
/** A staff manager holding only the team and the audience. */
const manager: AccessGranter = {
  role: 'staff',
  permissions: ['manage_users', 'team_features', 'manage_contacts', 'view_engagement_emails'],
  features: growup,
};

describe('customChoices: what custom offers', () => {
  it('an owner: every permission the plan grants (no admin permissions, none of a missing feature)', () => {
    const offered = customChoices(owner);
    expect(offered).toContain('manage_users');
    expect(offered).toContain('company_settings');
    expect(offered).not.toContain('admin_tenants');
    // GROW UP has no view_advertising_emails feature.
    expect(offered).not.toContain('view_advertising_emails');
  });
  it('a staff manager: only what they hold', () => {
    expect(customChoices(manager)).toEqual([
      'manage_users',
      'manage_contacts',
      'view_engagement_emails',
      'team_features',
    ]);
  });
});

describe('presetChoices: labels, descriptions and refusals', () => {
  it('an owner may give every preset', () => {
    expect(presetChoices(owner).map((c) => [c.preset, c.label, c.refusal])).toEqual([
      ['owner', 'Owner', null],
      ['admin', 'Admin', null],
      ['member', 'Member', null],
      ['custom', 'Custom', null],
    ]);
    expect(presetChoices(owner)[0]?.description).toBe(
      'Everything, including billing and the team; can act as any member.',
    );
  });
  it('a staff manager: Owner refused (only owners make owners), Admin and Member refused for what they lack', () => {
    const refusals = Object.fromEntries(presetChoices(manager).map((c) => [c.preset, c.refusal]));
    expect(refusals.owner).toBe('Only an owner can make someone an owner.');
    expect(refusals.admin).toMatch(
      /^You can only give permissions you hold yourself \(not: General settings and billing, /,
    );
    expect(refusals.member).toBe('You can only give permissions you hold yourself (not: Templates).');
    expect(refusals.custom).toBeNull();
  });
});

describe('checkAccess: the check before sending', () => {
  const cases: [string, AccessGranter, Parameters<typeof checkAccess>[1], Permission[], object][] = [
    ['owner gives owner', owner, 'owner', [], {}],
    ['custom with nothing chosen', owner, 'custom', [], { permissions: NO_PERMISSION_CHOSEN }],
    ['manager gives what they hold', manager, 'custom', ['manage_contacts'], {}],
    [
      'manager gives what they lack',
      manager,
      'custom',
      ['manage_contacts', 'templates'],
      { permissions: 'You can only give permissions you hold yourself (not: Templates).' },
    ],
    ['manager gives owner', manager, 'owner', [], { preset: 'Only an owner can make someone an owner.' }],
    [
      'a permission outside the plan',
      { ...owner, features: PLAN_FEATURES.basic },
      'custom',
      ['automations'],
      { permissions: 'Your plan does not include: Automations.' },
    ],
  ];
  it.each(cases)('%s', (_name, granter, preset, chosen, expected) => {
    expect(checkAccess(granter, preset, chosen)).toEqual(expected);
  });
});

describe('customStart and accessBody', () => {
  it('custom starts from what the previous preset gave, as far as custom offers it', () => {
    expect(customStart(owner, 'member', [])).toEqual(['manage_contacts', 'view_engagement_emails', 'templates']);
    expect(customStart(manager, 'member', [])).toEqual(['manage_contacts', 'view_engagement_emails']);
    expect(customStart(manager, 'custom', ['manage_contacts', 'templates'])).toEqual(['manage_contacts']);
  });
  it('sends permissions only for custom', () => {
    expect(accessBody('admin', ['templates'])).toEqual({ preset: 'admin', permissions: [] });
    expect(accessBody('custom', ['templates'])).toEqual({ preset: 'custom', permissions: ['templates'] });
  });
});

describe('compactPermissions', () => {
  it.each([
    [{ role: 'tenant_admin' as const, permissions: [] }, 'Everything'],
    [{ role: 'staff' as const, permissions: [] }, 'None'],
    [{ role: 'staff' as const, permissions: ['templates'] as Permission[] }, 'Templates'],
    [{ role: 'staff' as const, permissions: ['templates', 'automations'] as Permission[] }, 'Templates, Automations'],
    [
      {
        role: 'staff' as const,
        permissions: ['manage_contacts', 'templates', 'automations', 'api_access'] as Permission[],
      },
      'Contacts and lists, Templates +2 more',
    ],
  ])('%j -> %s', (member, text) => {
    expect(compactPermissions(member).text).toBe(text);
  });
  it('gives the full list for the title', () => {
    expect(
      compactPermissions({ role: 'staff', permissions: ['manage_contacts', 'templates', 'automations'] }).full,
    ).toBe('Contacts and lists, Templates, Automations');
  });
});

describe('rowActions', () => {
  const ownerViewer: TeamViewer = { ...owner, _id: 'me', is_impersonating: false };
  const managerViewer: TeamViewer = { ...manager, _id: 'me', is_impersonating: false };
  const cases: [string, TeamViewer, { _id: string; role: 'tenant_admin' | 'staff' }, object][] = [
    [
      'owner on a staff row',
      ownerViewer,
      { _id: 'x', role: 'staff' },
      { manage: true, impersonate: true, reason: null },
    ],
    [
      'owner on their own row',
      ownerViewer,
      { _id: 'me', role: 'tenant_admin' },
      { manage: false, impersonate: false, reason: NOT_YOURSELF },
    ],
    [
      'owner while impersonating',
      { ...ownerViewer, is_impersonating: true },
      { _id: 'x', role: 'staff' },
      { manage: true, impersonate: false, reason: null },
    ],
    [
      'manager on an owner row',
      managerViewer,
      { _id: 'x', role: 'tenant_admin' },
      { manage: false, impersonate: false, reason: OWNER_ONLY },
    ],
    [
      'manager on a staff row',
      managerViewer,
      { _id: 'x', role: 'staff' },
      { manage: true, impersonate: false, reason: null },
    ],
    [
      'without manage_users',
      { ...managerViewer, permissions: ['team_features'] },
      { _id: 'x', role: 'staff' },
      { manage: false, impersonate: false, reason: null },
    ],
  ];
  it.each(cases)('%s', (_name, viewer, member, expected) => {
    expect(rowActions(viewer, member)).toEqual(expected);
  });
});
