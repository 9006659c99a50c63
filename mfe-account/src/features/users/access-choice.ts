/**
 * What the access dialogs (edit a member, invite someone) may offer and send, from the rules of
 * access/team.ts (one place for the console and the gateway): nobody grants what they do not hold,
 * only owners make owners, and a plan grants only its features. Pure.
 */
import {
  TEAM_PRESETS,
  TEAM_PRESET_DESCRIPTIONS,
  TEAM_PRESET_LABELS,
  grantRefusal,
  grantablePermissions,
  labelsOf,
  presetAccess,
  type Feature,
  type Permission,
  type Role,
  type TeamPreset,
} from '@console/shared/access';
import type { TeamAccessBody } from '@console/shared/contracts';

/** The signed-in user granting access: role, effective permissions and the plan's features. */
export interface AccessGranter {
  role: Role;
  permissions: readonly Permission[];
  features: readonly Feature[];
}

export interface PresetChoice {
  preset: TeamPreset;
  label: string;
  description: string;
  /** Why the granter cannot choose it, or null when they can. */
  refusal: string | null;
}

/** Our choice: a custom set needs at least one permission (an empty one gives a console with nothing in it). */
export const NO_PERMISSION_CHOSEN = 'Choose at least one permission.';

/**
 * The permissions "custom" offers: those the plan grants (grantablePermissions) that the granter holds,
 * or all of them for an owner (tenant_admin), in the vocabulary's order.
 */
export function customChoices(granter: AccessGranter): Permission[] {
  const grantable = grantablePermissions(granter.features);
  return granter.role === 'tenant_admin' ? grantable : grantable.filter((p) => granter.permissions.includes(p));
}

/** Why `granter` may not give `preset` (with `chosen` for custom), in words, or null (grantRefusal decides). */
export function refusalOf(
  granter: AccessGranter,
  preset: TeamPreset,
  chosen: readonly Permission[] = [],
): { field: 'preset' | 'permissions'; message: string } | null {
  return grantRefusal(granter, presetAccess(preset, granter.features, chosen), granter.features);
}

/** Every preset with its label and description, and why the granter cannot give it (custom is always offered). */
export function presetChoices(granter: AccessGranter): PresetChoice[] {
  return TEAM_PRESETS.map((preset) => ({
    preset,
    label: TEAM_PRESET_LABELS[preset],
    description: TEAM_PRESET_DESCRIPTIONS[preset],
    refusal: preset === 'custom' ? null : (refusalOf(granter, preset)?.message ?? null),
  }));
}

/**
 * The permissions custom starts with when the person switches to it from `preset`: what that preset
 * gives on this plan, as far as custom offers it ("start from what you had").
 */
export function customStart(granter: AccessGranter, preset: TeamPreset, current: readonly Permission[]): Permission[] {
  const offered = customChoices(granter);
  const from = preset === 'custom' ? current : presetAccess(preset, granter.features).permissions;
  return offered.filter((p) => from.includes(p));
}

/** The request body: the preset, and the chosen permissions only for custom (the gateway ignores them otherwise). */
export function accessBody(preset: TeamPreset, chosen: readonly Permission[]): TeamAccessBody {
  return { preset, permissions: preset === 'custom' ? [...chosen] : [] };
}

export type AccessFieldErrors = Partial<Record<'preset' | 'permissions', string>>;

/** The dialog's own check before sending: the same refusals the gateway answers, and a non-empty custom set. */
export function checkAccess(
  granter: AccessGranter,
  preset: TeamPreset,
  chosen: readonly Permission[],
): AccessFieldErrors {
  if (preset === 'custom' && chosen.length === 0) return { permissions: NO_PERMISSION_CHOSEN };
  const refusal = refusalOf(granter, preset, chosen);
  return refusal ? { [refusal.field]: refusal.message } : {};
}

/**
 * A member's permissions for the grid, compact: 'Everything' for an owner, else the first `shown`
 * labels and '+N more' (the full list goes in the cell's title).
 */
export function compactPermissions(
  member: { role: Role; permissions: readonly Permission[] },
  shown = 2,
): { text: string; full: string } {
  if (member.role === 'tenant_admin') return { text: 'Everything', full: 'Every permission of the plan' };
  if (member.permissions.length === 0) return { text: 'None', full: 'No permissions' };
  const full = labelsOf(member.permissions);
  const rest = member.permissions.length - shown;
  const text = rest > 0 ? `${labelsOf(member.permissions.slice(0, shown))} +${rest} more` : full;
  return { text, full };
}

/** The signed-in user as the team grid sees them. */
export interface TeamViewer extends AccessGranter {
  _id: string;
  is_impersonating: boolean;
}

export const NOT_YOURSELF = 'You cannot change or remove yourself.';
export const OWNER_ONLY = 'Only an owner can change an owner.';

/**
 * What a row of the team grid offers the viewer: Edit access and Remove for holders of manage_users
 * (the gateway's permission for these calls), except on their own row and, for a non-owner, on an
 * owner's (the gateway refuses both; the reason shows instead). Impersonate: owners who are not
 * themselves impersonating, on anyone but themselves (spec section 1: tenant admins can impersonate).
 */
export function rowActions(
  viewer: TeamViewer,
  member: { _id: string; role: Role },
): { manage: boolean; impersonate: boolean; reason: string | null } {
  const self = member._id === viewer._id;
  const impersonate = !self && viewer.role === 'tenant_admin' && !viewer.is_impersonating;
  if (!viewer.permissions.includes('manage_users')) return { manage: false, impersonate, reason: null };
  if (self) return { manage: false, impersonate, reason: NOT_YOURSELF };
  if (member.role === 'tenant_admin' && viewer.role !== 'tenant_admin')
    return { manage: false, impersonate, reason: OWNER_ONLY };
  return { manage: true, impersonate, reason: null };
}
