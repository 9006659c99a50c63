import { type RuntimeConfig } from '@console/shared/config';
import { ADMIN_PERMISSIONS } from '@console/shared/access';
import { type SessionUser } from '@console/shared/contracts/core';

/**
 * Which remotes a signed-in user may download: tenant areas for users with a tenant, the admin area
 * only for holders of an admin permission. Tenant staff never request the admin remote's files.
 */
export function remotesFor(user: Pick<SessionUser, 'tenant_id' | 'permissions'>, config: RuntimeConfig) {
  const admin = user.permissions.some((p) => ADMIN_PERMISSIONS.includes(p));
  const tenant = user.tenant_id !== null;
  return Object.entries(config.remotes)
    .filter(([, r]) => (r.audience === 'admin' ? admin : tenant))
    .map(([name, r]) => ({ name, entry: r.entry }));
}
