/**
 * The words of spec section 6: roles, permissions and plan features.
 * One place; the console (rules, menus) and the gateway (seed, enforcement) both import it.
 */
export const ROLES = ['super_admin', 'global_admin', 'tenant_admin', 'staff'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  'company_settings',
  'manage_domains',
  'manage_users',
  'manage_api',
  'manage_community',
  'manage_contacts',
  'view_engagement_emails',
  'templates',
  'custom_attributes',
  'automations',
  'monitor_smart_contracts',
  'transactional_emails',
  'view_advertising_emails',
  'send_advertising_emails',
  'team_features',
  'api_access',
  'admin_tenants',
  'admin_plans',
  'admin_applets',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const FEATURES = [
  'custom_domains',
  'team_features',
  'api_access',
  'manage_contacts',
  'view_engagement_emails',
  'templates',
  'custom_attributes',
  'automations',
  'monitor_smart_contracts',
  'transactional_emails',
  'view_advertising_emails',
] as const;
export type Feature = (typeof FEATURES)[number];

/** Permissions that only platform admins hold. */
export const ADMIN_PERMISSIONS: readonly Permission[] = ['admin_tenants', 'admin_plans', 'admin_applets'];

/** Every permission a tenant admin (community owner) holds. */
export const TENANT_PERMISSIONS: readonly Permission[] = PERMISSIONS.filter((p) => !ADMIN_PERMISSIONS.includes(p));

/**
 * The plan feature that gates a permission, where one does. Feature names equal permission
 * names except custom domains (permission manage_domains, feature custom_domains).
 */
export function featureForPermission(permission: Permission): Feature | null {
  if (permission === 'manage_domains') return 'custom_domains';
  return (FEATURES as readonly string[]).includes(permission) ? (permission as Feature) : null;
}

/** Plan keys and the features each plan grants (spec section 6; the full catalogue with prices comes with billing). */
export const PLAN_KEYS = ['basic', 'startup', 'growup', 'scaleup'] as const;
export type PlanKey = (typeof PLAN_KEYS)[number];

const BASIC_FEATURES: Feature[] = [
  'manage_contacts',
  'view_engagement_emails',
  'templates',
  'custom_attributes',
  'monitor_smart_contracts',
];
const STARTUP_FEATURES: Feature[] = [...BASIC_FEATURES, 'automations', 'transactional_emails'];
const GROWUP_FEATURES: Feature[] = [...STARTUP_FEATURES, 'team_features', 'api_access', 'custom_domains'];
const SCALEUP_FEATURES: Feature[] = [...GROWUP_FEATURES, 'view_advertising_emails'];

export const PLAN_FEATURES: Record<PlanKey, readonly Feature[]> = {
  basic: BASIC_FEATURES,
  startup: STARTUP_FEATURES,
  growup: GROWUP_FEATURES,
  scaleup: SCALEUP_FEATURES,
};

/**
 * Effective permissions: a permission gated by a feature counts only while the tenant's plan has
 * that feature. The gateway computes this once per request and the session user carries it, so the
 * console's access rule and the server's enforcement use the same list.
 */
export function effectivePermissions(granted: readonly Permission[], features: readonly Feature[]): Permission[] {
  return granted.filter((p) => {
    const f = featureForPermission(p);
    return f === null || features.includes(f);
  });
}
