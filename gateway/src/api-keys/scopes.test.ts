// The scope rule as a table: each scope's permissions on each plan.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PLAN_FEATURES, type Permission } from '../contracts';
import { scopePermissions, scopesWith } from './scopes';

const FULL_GROWUP: Permission[] = [
  'manage_community',
  'manage_contacts',
  'view_engagement_emails',
  'templates',
  'custom_attributes',
  'automations',
  'monitor_smart_contracts',
  'transactional_emails',
];

describe('scopePermissions', () => {
  const rows: Array<[Parameters<typeof scopePermissions>[0], keyof typeof PLAN_FEATURES, Permission[]]> = [
    ['full', 'growup', FULL_GROWUP],
    ['full', 'scaleup', [...FULL_GROWUP, 'view_advertising_emails']],
    ['full', 'basic', FULL_GROWUP.filter((p) => p !== 'automations' && p !== 'transactional_emails')],
    ['sending', 'growup', ['transactional_emails']],
    ['sending', 'basic', []],
    ['contacts', 'growup', ['manage_contacts']],
    ['contacts', 'basic', ['manage_contacts']],
  ];
  for (const [scope, plan, expected] of rows) {
    it(`${scope} on ${plan}`, () => {
      assert.deepEqual(scopePermissions(scope, PLAN_FEATURES[plan]).sort(), [...expected].sort());
    });
  }

  it('never gives a key users, keys, webhooks, billing, settings, domains or admin rights', () => {
    const full = scopePermissions('full', PLAN_FEATURES.scaleup);
    for (const p of [
      'manage_users',
      'team_features',
      'api_access',
      'manage_api',
      'company_settings',
      'manage_domains',
      'send_advertising_emails',
      'admin_tenants',
      'admin_plans',
      'admin_applets',
    ] as const) {
      assert.ok(!full.includes(p), p);
    }
  });

  it('names the scopes that hold a permission', () => {
    assert.deepEqual(scopesWith('manage_contacts'), ['full', 'contacts']);
    assert.deepEqual(scopesWith('transactional_emails'), ['full', 'sending']);
    assert.deepEqual(scopesWith('templates'), ['full']);
    assert.deepEqual(scopesWith('api_access'), []);
  });
});
