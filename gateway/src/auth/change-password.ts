import type { Deps } from '../deps';
import { findUserById } from '../db/users';
import { badRequest, forbidden } from '../errors';
import { revokeOneTimeTokens } from './one-time-tokens';
import { refuseWeakPassword } from './password-strength';
import { hashPassword, verifyPassword } from './passwords';
import type { AuthContext } from './session';
import { sessionsChanged, setPasswordEverywhere } from './communities';
import { recordAccountEvents } from './team-events';
import { guardedPasswordCheck } from './throttle';
import { signToken } from './tokens';

export const WRONG_CURRENT_PASSWORD = 'Your current password is not correct.';
export const NOT_WHILE_IMPERSONATING = 'You are acting as this user; they change their own password.';

/**
 * Change password (account/change-password): the current password is checked under the sign-in
 * guessing limits (the same counters as signing in, so guesses here and there add up), then every
 * session of the user ends (token version raised) and reset links die, in each of their communities; the caller gets a new token,
 * so this session goes on. Not while impersonating: that is the user's own decision.
 */
export async function changePassword(
  deps: Deps,
  auth: AuthContext,
  request: { currentPassword: string; newPassword: string; ip: string },
): Promise<string> {
  if (auth.impersonatorId) throw forbidden(NOT_WHILE_IMPERSONATING);
  const user = await findUserById(deps.db, auth.user.id);
  if (!user) throw forbidden();
  // Judged before the current password is checked: a refused new password spends no guess.
  await refuseWeakPassword('new_password', request.newPassword, [user.email, user.firstName, user.lastName]);
  const ok = await guardedPasswordCheck(deps.throttle, user.email.toLowerCase(), request.ip, () =>
    verifyPassword(user.passwordHash, request.currentPassword),
  );
  if (!ok) throw badRequest(WRONG_CURRENT_PASSWORD, { current_password: [WRONG_CURRENT_PASSWORD] });
  const passwordHash = await hashPassword(request.newPassword);
  // The person's accounts in other communities share the password (auth/communities.ts).
  const accounts = await deps.db.transaction(async (tx) => {
    const changed = await setPasswordEverywhere(tx, user.email, passwordHash);
    for (const account of changed) await revokeOneTimeTokens(tx, account.id, 'password_reset');
    // The team's activity: the person changed their password, in each of their communities.
    await recordAccountEvents(tx, 'password_changed', changed);
    return changed;
  });
  sessionsChanged(deps.db, accounts);
  const updated = accounts.find((a) => a.id === user.id);
  if (!updated) throw forbidden();
  return signToken(deps.config, {
    userId: user.id,
    tenantId: user.tenantId,
    role: user.role,
    tokenVersion: updated.tokenVersion,
  });
}
