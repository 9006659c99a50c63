import type { Deps } from '../deps';
import { findUserById } from '../db/users';
import { badRequest, forbidden, notFound } from '../errors';
import { impersonationDenial, type AuthContext } from './session';
import { signToken } from './tokens';

/** A token for `targetId` that records the caller as impersonator, if the rules allow it. */
export async function impersonate(deps: Deps, caller: AuthContext, targetId: string): Promise<string> {
  if (caller.impersonatorId) throw forbidden('Stop impersonating before you impersonate someone else.');
  const admin = { id: caller.user.id, role: caller.user.role, tenantId: caller.tenantId };
  if (admin.role !== 'super_admin' && admin.role !== 'tenant_admin') {
    throw forbidden('Only super admins and tenant admins can impersonate users.');
  }
  if (targetId === admin.id) {
    throw badRequest('You cannot impersonate yourself.', { user_id: ['You cannot impersonate yourself.'] });
  }
  const target = await findUserById(deps.db, targetId);
  if (!target) throw notFound('User not found.');
  const denial = impersonationDenial(admin, { id: target.id, role: target.role, tenantId: target.tenantId });
  if (denial) throw forbidden(denial);
  return signToken(deps.config, {
    userId: target.id,
    tenantId: target.tenantId,
    role: target.role,
    tokenVersion: target.tokenVersion,
    impersonator: { id: admin.id, tokenVersion: caller.user.tokenVersion },
  });
}
