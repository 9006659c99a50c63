import { memberRoleName } from './team';

// One name for a member's role, in Manage Users and in the admins' tenant panel.
test.each([
  [{ role: 'tenant_admin', preset: 'owner' }, 'Owner'],
  [{ role: 'staff', preset: 'admin' }, 'Admin'],
  [{ role: 'staff', preset: 'member' }, 'Member'],
  [{ role: 'staff', preset: 'custom' }, 'Custom'],
  [{ role: 'super_admin', preset: 'custom' }, 'Super admin'],
  [{ role: 'global_admin', preset: 'custom' }, 'Global admin'],
] as const)('%o is named %s', (member, name) => {
  expect(memberRoleName(member)).toBe(name);
});
