/**
 * Who may hold what in a community's team (Manage Users). Spec section 6 names the roles and
 * permissions; the presets are ours, chosen as the best consoles present them:
 *
 * - owner: role tenant_admin with every tenant permission (so a plan upgrade unlocks its features
 *   for them at once). Owners may impersonate their team (spec section 1) and only owners make owners.
 *   A community keeps at least one owner.
 * - admin: staff with every permission the plan allows.
 * - member: staff who work on the audience and e-mails (contacts, e-mails, templates), as far as the
 *   plan allows.
 * - custom: staff with a chosen set of the permissions the plan allows.
 *
 * Nobody grants what they do not hold themselves (their effective permissions), so managing users
 * never raises anyone above the person doing it. One place: the console's dialogs and the gateway
 * both use these functions.
 */
import {
  type Feature,
  featureForPermission,
  type Permission,
  PERMISSIONS,
  type Role,
  TENANT_PERMISSIONS,
} from './vocabulary';

export const TEAM_PRESETS = ['owner', 'admin', 'member', 'custom'] as const;
export type TeamPreset = (typeof TEAM_PRESETS)[number];

export const TEAM_PRESET_LABELS: Record<TeamPreset, string> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
  custom: 'Custom',
};

export const TEAM_PRESET_DESCRIPTIONS: Record<TeamPreset, string> = {
  owner: 'Everything, including billing and the team; can act as any member.',
  admin: 'Every feature of your plan, without owner rights.',
  member: 'Contacts, e-mails and templates.',
  custom: 'Only the permissions you choose.',
};

/** How the console names each permission (the team dialogs, the grid, refusals). */
export const PERMISSION_LABELS: Record<Permission, string> = {
  company_settings: 'General settings and billing',
  manage_domains: 'Custom domains',
  manage_users: 'Manage users',
  manage_api: 'Manage API keys',
  manage_community: 'Community page and widgets',
  manage_contacts: 'Contacts and lists',
  view_engagement_emails: 'E-mails',
  templates: 'Templates',
  custom_attributes: 'Custom attributes',
  automations: 'Automations',
  monitor_smart_contracts: 'Smart contracts',
  transactional_emails: 'Transactional e-mails',
  view_advertising_emails: 'View advertising e-mails',
  send_advertising_emails: 'Send advertising e-mails',
  team_features: 'Team features',
  api_access: 'API access',
  admin_tenants: 'Platform: tenants',
  admin_plans: 'Platform: plans',
  admin_applets: 'Platform: applets',
};

export const labelsOf = (permissions: readonly Permission[]) => permissions.map((p) => PERMISSION_LABELS[p]).join(', ');

const MEMBER_PERMISSIONS: readonly Permission[] = ['manage_contacts', 'view_engagement_emails', 'templates'];

/** Tenant permissions a community on a plan with these features can grant. */
export function grantablePermissions(features: readonly Feature[]): Permission[] {
  return TENANT_PERMISSIONS.filter((p) => {
    const f = featureForPermission(p);
    return f === null || features.includes(f);
  });
}

export interface TeamAccess {
  role: Extract<Role, 'tenant_admin' | 'staff'>;
  permissions: Permission[];
}

/** The role and permissions a preset stands for on a plan (`custom`: the chosen ones, in the vocabulary's order). */
export function presetAccess(
  preset: TeamPreset,
  features: readonly Feature[],
  chosen: readonly Permission[] = [],
): TeamAccess {
  const grantable = grantablePermissions(features);
  switch (preset) {
    case 'owner':
      return { role: 'tenant_admin', permissions: [...TENANT_PERMISSIONS] };
    case 'admin':
      return { role: 'staff', permissions: grantable };
    case 'member':
      return { role: 'staff', permissions: grantable.filter((p) => MEMBER_PERMISSIONS.includes(p)) };
    case 'custom':
      // Everything chosen, in the vocabulary's order: what is not grantable is refused, not dropped.
      return { role: 'staff', permissions: PERMISSIONS.filter((p) => chosen.includes(p)) };
  }
}

/** The preset a member's access reads as (for the grid and to preselect the dialog). */
export function presetOf(role: Role, permissions: readonly Permission[], features: readonly Feature[]): TeamPreset {
  if (role === 'tenant_admin') return 'owner';
  const same = (a: readonly Permission[], b: readonly Permission[]) =>
    a.length === b.length && a.every((p) => b.includes(p));
  for (const preset of ['admin', 'member'] as const) {
    if (same(presetAccess(preset, features).permissions, permissions)) return preset;
  }
  return 'custom';
}

/** How platform roles outside a team read. */
const PLATFORM_ROLE_NAMES: Partial<Record<Role, string>> = { super_admin: 'Super admin', global_admin: 'Global admin' };

/**
 * The name of a member's role, wherever the console shows one (Manage Users, the admins' tenant
 * panel): the team preset their access reads as (owner for every tenant admin), or the platform role.
 */
export function memberRoleName(member: { role: Role; preset: TeamPreset }): string {
  return PLATFORM_ROLE_NAMES[member.role] ?? TEAM_PRESET_LABELS[member.preset];
}

export interface Granter {
  role: Role;
  /** Effective permissions of the person granting. */
  permissions: readonly Permission[];
}

/**
 * Why `granter` may not give `access` on a plan with `features`, or null when they may. The reasons
 * are the field errors the gateway answers with (field `permissions`, or `preset` for owner rights).
 */
export function grantRefusal(
  granter: Granter,
  access: TeamAccess,
  features: readonly Feature[],
): { field: 'preset' | 'permissions'; message: string } | null {
  if (access.role === 'tenant_admin') {
    return granter.role === 'tenant_admin'
      ? null
      : { field: 'preset', message: 'Only an owner can make someone an owner.' };
  }
  const grantable = grantablePermissions(features);
  const outsidePlan = access.permissions.filter((p) => !grantable.includes(p));
  if (outsidePlan.length > 0) {
    return { field: 'permissions', message: `Your plan does not include: ${labelsOf(outsidePlan)}.` };
  }
  if (granter.role === 'tenant_admin') return null;
  const notHeld = access.permissions.filter((p) => !granter.permissions.includes(p));
  return notHeld.length > 0
    ? { field: 'permissions', message: `You can only give permissions you hold yourself (not: ${labelsOf(notHeld)}).` }
    : null;
}
