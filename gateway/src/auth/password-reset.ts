import { eq, sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { users } from '../db/schema';
import { findUserByEmail } from '../db/users';
import { badRequest } from '../errors';
import { passwordResetMail } from '../mail/messages';
import { consumeOneTimeToken, countIssuedSince, issueOneTimeToken, revokeOneTimeTokens } from './one-time-tokens';
import { hashPassword } from './passwords';
import { sessionChanged } from './session-cache';

export const RESET_REQUESTED =
  'If an account exists for that e-mail address, we have sent it a link to reset the password.';
export const RESET_DONE = 'Your password has been changed. You can sign in with it now.';
const BAD_RESET_TOKEN = 'This reset link is invalid or has expired. Please request a new one.';

/** Reset e-mails per account and hour; more requests are answered the same way but send nothing. */
const RESETS_PER_HOUR = 5;

/**
 * E-mail a reset link when the account exists. The caller answers the same either way and does not
 * wait for this (so timing does not tell whether the account exists).
 */
export async function sendResetLink(deps: Deps, email: string): Promise<void> {
  const user = await findUserByEmail(deps.db, email);
  if (!user) return;
  const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
  if ((await countIssuedSince(deps.db, user.id, 'password_reset', hourAgo)) >= RESETS_PER_HOUR) return;
  const token = await issueOneTimeToken(deps.db, user.id, 'password_reset', deps.config.resetTokenTtlMs);
  const link = `${deps.config.consoleUrl}/reset/${encodeURIComponent(user.id)}/${encodeURIComponent(token)}`;
  await deps.mailer.send(
    passwordResetMail(user.email, user.firstName, link, Math.round(deps.config.resetTokenTtlMs / 60_000)),
  );
}

/** Set a new password with a reset token (once); every other reset link and every session dies. */
export async function completeReset(deps: Deps, userId: string, resetToken: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  const ok = await deps.db.transaction(async (tx) => {
    if (!(await consumeOneTimeToken(tx, userId, 'password_reset', resetToken))) return false;
    await tx
      .update(users)
      .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.id, userId));
    await revokeOneTimeTokens(tx, userId, 'password_reset');
    return true;
  });
  if (!ok) throw badRequest(BAD_RESET_TOKEN, { reset_token: [BAD_RESET_TOKEN] });
  sessionChanged(deps.db, `user:${userId}`);
}
