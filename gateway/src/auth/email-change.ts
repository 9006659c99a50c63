/**
 * Your Profile: changing the sign-in e-mail address (spec section 2, account/profile; the e-mail is
 * confirmed through the confirm-email flow of spec section 2's bare pages). The current password is
 * checked under the sign-in guessing limits (as for a password change); the new address is kept
 * aside (users.pending_email) and becomes the sign-in address only when the link sent to it is
 * opened, so a typo cannot lock anybody out. The former address is told once the change is done,
 * and reset links sent to it die. Not while impersonating: the address is the user's own.
 */
import { eq, sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { users } from '../db/schema';
import { findUserById } from '../db/users';
import { badRequest, forbidden, HttpError, INVALID_INPUT } from '../errors';
import { uniqueViolation } from '../lib/db-helpers';
import { emailChangedNoticeMail, emailChangeMail } from '../mail/messages';
import { countIssuedSince, consumeOneTimeToken, issueOneTimeToken, revokeOneTimeTokens } from './one-time-tokens';
import { WRONG_CURRENT_PASSWORD } from './change-password';
import { verifyPassword } from './passwords';
import type { AuthContext } from './session';
import { sameAddress, sessionsChanged } from './communities';
import { recordAccountEvents } from './team-events';
import { guardedPasswordCheck } from './throttle';

export const EMAIL_CHANGE_SENT = 'We have sent a link to your new address. Open it to start signing in with it.';
export const EMAIL_CHANGED = 'Your new e-mail address is confirmed. Sign in with it from now on.';
export const EMAIL_IN_USE = 'This e-mail address is already in use.';
export const SAME_EMAIL = 'This is already your e-mail address.';
export const EMAIL_NOT_WHILE_IMPERSONATING = 'You are acting as this user; they change their own e-mail address.';
const CHANGES_PER_HOUR = 5;

async function addressTaken(deps: Deps, email: string, userId: string): Promise<boolean> {
  const [row] = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()} and ${users.id} <> ${userId}`)
    .limit(1);
  return row !== undefined;
}

/** Keep `email` aside and send its confirmation link; the sign-in address stays until it is opened. */
export async function requestEmailChange(
  deps: Deps,
  auth: AuthContext,
  request: { email: string; currentPassword: string; ip: string },
): Promise<void> {
  if (auth.impersonatorId) throw forbidden(EMAIL_NOT_WHILE_IMPERSONATING);
  const user = await findUserById(deps.db, auth.user.id);
  if (!user) throw forbidden();
  const ok = await guardedPasswordCheck(deps.throttle, user.email.toLowerCase(), request.ip, () =>
    verifyPassword(user.passwordHash, request.currentPassword),
  );
  if (!ok) throw badRequest(WRONG_CURRENT_PASSWORD, { current_password: [WRONG_CURRENT_PASSWORD] });
  const email = request.email.trim().toLowerCase();
  if (email === user.email.toLowerCase()) throw badRequest(INVALID_INPUT, { email: [SAME_EMAIL] });
  if (await addressTaken(deps, email, user.id)) throw badRequest(INVALID_INPUT, { email: [EMAIL_IN_USE] });
  const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
  if ((await countIssuedSince(deps.db, user.id, 'email_change', hourAgo)) >= CHANGES_PER_HOUR) {
    throw new HttpError(429, 'We have sent several confirmation e-mails already. Please try again later.', undefined, {
      'Retry-After': '3600',
    });
  }
  const token = await deps.db.transaction(async (tx) => {
    await revokeOneTimeTokens(tx, user.id, 'email_change');
    await tx.update(users).set({ pendingEmail: email }).where(eq(users.id, user.id));
    return issueOneTimeToken(tx, user.id, 'email_change', deps.config.confirmTokenTtlMs);
  });
  const query = new URLSearchParams({ user_id: user.id, token });
  await deps.mailer.send(emailChangeMail(email, user.firstName, `${deps.config.consoleUrl}/confirm-email?${query}`));
}

/** Forget the address waiting for confirmation; its link dies. */
export async function cancelEmailChange(deps: Deps, auth: AuthContext): Promise<void> {
  if (auth.impersonatorId) throw forbidden(EMAIL_NOT_WHILE_IMPERSONATING);
  await deps.db.transaction(async (tx) => {
    await revokeOneTimeTokens(tx, auth.user.id, 'email_change');
    await tx.update(users).set({ pendingEmail: null }).where(eq(users.id, auth.user.id));
  });
}

/**
 * Opening the link sent to the new address: it becomes the sign-in address (confirmed, since the
 * link reached it). False when the token is not a usable e-mail-change token of this user. Someone
 * else may have taken the address meanwhile: then it is a field error and nothing changes.
 */
export async function confirmEmailChange(deps: Deps, userId: string, token: string): Promise<boolean> {
  let change: { from: string; to: string; firstName: string; moved: { id: string }[] } | null = null;
  try {
    change = await deps.db.transaction(async (tx) => {
      const [before] = await tx
        .select({ email: users.email, pendingEmail: users.pendingEmail, firstName: users.firstName })
        .from(users)
        .where(eq(users.id, userId))
        .for('update');
      if (!before?.pendingEmail) return null;
      if (!(await consumeOneTimeToken(tx, userId, 'email_change', token))) return null;
      // Taken meanwhile by someone else (in any community: the unique index covers one community only).
      const [taken] = await tx.select({ id: users.id }).from(users).where(sameAddress(before.pendingEmail)).limit(1);
      if (taken) throw badRequest(EMAIL_IN_USE, { token: [EMAIL_IN_USE] });
      // The person's accounts in other communities move with it (auth/communities.ts).
      const moved = await tx
        .update(users)
        .set({ email: before.pendingEmail, pendingEmail: null, emailConfirmedAt: new Date() })
        .where(sameAddress(before.email))
        .returning({ id: users.id });
      for (const account of moved) {
        await revokeOneTimeTokens(tx, account.id, 'password_reset');
        await revokeOneTimeTokens(tx, account.id, 'email_confirmation');
      }
      // The team's activity: the address changed, in each of the person's communities.
      await recordAccountEvents(tx, 'email_changed', moved, { previousEmail: before.email });
      return { from: before.email, to: before.pendingEmail, firstName: before.firstName, moved };
    });
  } catch (error) {
    if (uniqueViolation(error) === null) throw error;
    throw badRequest(EMAIL_IN_USE, { token: [EMAIL_IN_USE] });
  }
  if (!change) return false;
  sessionsChanged(deps.db, change.moved);
  await deps.mailer.send(emailChangedNoticeMail(change.from, change.firstName, change.to));
  return true;
}
