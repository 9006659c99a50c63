/**
 * What an API key may do: its scope's permissions, within what the tenant's plan allows. One rule,
 * read by the key check (key-auth.ts), the OpenAPI document (which scopes may call an operation) and
 * key creation (nobody makes a key that could do more than they can).
 */
import {
  type ApiKeyScope,
  effectivePermissions,
  type Feature,
  type Permission,
  TENANT_PERMISSIONS,
} from '../contracts';

/**
 * Never given to a key: managing users and teams, API keys and webhooks (api_access, manage_api),
 * billing and company settings (company_settings), and domains. A key can never mint keys or change
 * who has access. Nor sending advertising e-mails, which platform admins do while impersonating (spec
 * section 2), never a tenant's own software.
 */
export const NEVER_FOR_KEYS: readonly Permission[] = [
  'manage_users',
  'team_features',
  'api_access',
  'manage_api',
  'company_settings',
  'manage_domains',
  'send_advertising_emails',
];

const SCOPES: Record<ApiKeyScope, readonly Permission[]> = {
  full: TENANT_PERMISSIONS.filter((p) => !NEVER_FOR_KEYS.includes(p)),
  sending: ['transactional_emails'],
  contacts: ['manage_contacts'],
};

/** The permissions a key of `scope` holds on a plan with `features` (feature-gated ones only with the feature). */
export function scopePermissions(scope: ApiKeyScope, features: readonly Feature[]): Permission[] {
  return effectivePermissions(SCOPES[scope], features);
}

/** The scopes whose keys hold `permission` (on a plan that has its feature), for the API reference. */
export function scopesWith(permission: Permission): ApiKeyScope[] {
  return (Object.keys(SCOPES) as ApiKeyScope[]).filter((scope) => SCOPES[scope].includes(permission));
}
