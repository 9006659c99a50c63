import type { Deps } from '../deps';
import { findLiveUserById } from '../db/users';
import { badRequest, forbidden, notFound } from '../errors';
import { mayImpersonate, type AuthContext } from './session';

export const USER_NOT_FOUND = 'User not found.';
import { recordTeamEvent } from './team-events';
import { signToken } from './tokens';

/**
 * A token for `targetId` that records the caller as impersonator, if the rules allow it. What the caller
 * may do at all (403) and impersonating oneself (400) are told apart; every target the caller may not
 * impersonate is the same 404.
 */
export async function impersonate(deps: Deps, caller: AuthContext, targetId: string): Promise<string> {
  if (caller.impersonatorId) throw forbidden('Stop impersonating before you impersonate someone else.');
  const admin = { id: caller.user.id, role: caller.user.role, tenantId: caller.tenantId };
  if (admin.role !== 'super_admin' && admin.role !== 'tenant_admin') {
    throw forbidden('Only super admins and tenant admins can impersonate users.');
  }
  if (targetId === admin.id) {
    throw badRequest('You cannot impersonate yourself.', { user_id: ['You cannot impersonate yourself.'] });
  }
  // Unknown, a super admin, another tenant's user: one answer, so the call tells nothing about users
  // the caller may not impersonate (the console shows its generic error state, spec section 4).
  const target = await findLiveUserById(deps.db, targetId);
  if (!target || !mayImpersonate(admin, { id: target.id, role: target.role, tenantId: target.tenantId })) {
    throw notFound(USER_NOT_FOUND);
  }
  // The team's activity: who acted as whom in the community.
  if (target.tenantId) {
    await recordTeamEvent(deps.db, {
      tenantId: target.tenantId,
      kind: 'impersonated',
      actor: { id: admin.id, email: caller.user.email },
      subject: { id: target.id, email: target.email },
    });
  }
  return signToken(deps.config, {
    userId: target.id,
    tenantId: target.tenantId,
    role: target.role,
    tokenVersion: target.tokenVersion,
    impersonator: { id: admin.id, tokenVersion: caller.user.tokenVersion },
  });
}
