import { eq } from 'drizzle-orm';
import type { Deps } from '../deps';
import { users } from '../db/schema';
import { findLiveUserByEmail, findUserById } from '../db/users';
import { badRequest } from '../errors';
import { passwordResetMail } from '../mail/messages';
import { clientKey } from '../lib/client-key';
import { isUuid } from '../lib/db-helpers';
import type { WindowThrottle } from '../lib/window-throttle';
import {
  consumeOneTimeToken,
  countIssuedSince,
  issueOneTimeToken,
  oneTimeTokenUsable,
  revokeOneTimeTokens,
} from './one-time-tokens';
import { refuseWeakPassword } from './password-strength';
import { hashPassword } from './passwords';
import { sessionsChanged, setPasswordEverywhere } from './communities';
import { recordAccountEvents } from './team-events';

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
  const user = await findLiveUserByEmail(deps.db, email);
  if (!user) return;
  const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
  if ((await countIssuedSince(deps.db, user.id, 'password_reset', hourAgo)) >= RESETS_PER_HOUR) return;
  const token = await issueOneTimeToken(deps.db, user.id, 'password_reset', deps.config.resetTokenTtlMs);
  const link = `${deps.config.consoleUrl}/reset/${encodeURIComponent(user.id)}/${encodeURIComponent(token)}`;
  await deps.mailer.send(
    passwordResetMail(user.email, user.firstName, link, Math.round(deps.config.resetTokenTtlMs / 60_000)),
  );
}

/** Attempts to set a new password per client address, and per account, in the throttle window. */
export const RESET_ADDRESS_MAX = 20;
export const RESET_USER_MAX = 10;
export const TOO_MANY_RESETS = 'Too many attempts to reset a password. Please try again later.';

/**
 * Set a new password with a reset token (once); every other reset link and every session dies, and
 * the client address becomes known-good for signing in (the person there holds the account's mail).
 * Throttled per client address and per account before anything else; the token is checked before the
 * password is hashed, so a wrong token costs one indexed read and never an argon2 hash.
 */
export async function completeReset(
  deps: Deps,
  throttle: WindowThrottle,
  request: { userId: string; resetToken: string; password: string; ip: string },
): Promise<void> {
  const { userId, resetToken, password, ip } = request;
  await throttle.enforce(
    [
      { key: `reset:address:${clientKey(ip)}`, max: RESET_ADDRESS_MAX },
      { key: `reset:user:${userId.toLowerCase()}`, max: RESET_USER_MAX },
    ],
    TOO_MANY_RESETS,
  );
  const badToken = () => badRequest(BAD_RESET_TOKEN, { reset_token: [BAD_RESET_TOKEN] });
  if (!isUuid(userId) || !(await oneTimeTokenUsable(deps.db, userId, 'password_reset', resetToken))) throw badToken();
  const owner = await findUserById(deps.db, userId);
  await refuseWeakPassword('password', password, [owner?.email, owner?.firstName, owner?.lastName]);
  const passwordHash = await hashPassword(password);
  const done = await deps.db.transaction(async (tx) => {
    if (!(await consumeOneTimeToken(tx, userId, 'password_reset', resetToken))) return null;
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    if (!user) return null;
    // The person's accounts in other communities share the password (auth/communities.ts).
    const accounts = await setPasswordEverywhere(tx, user.email, passwordHash);
    for (const account of accounts) await revokeOneTimeTokens(tx, account.id, 'password_reset');
    // The team's activity: the password was set from a reset link sent to the account's address.
    await recordAccountEvents(tx, 'password_changed', accounts);
    return { email: user.email, accounts };
  });
  // Used meanwhile by a request racing this one.
  if (done === null) throw badToken();
  const { email, accounts } = done;
  sessionsChanged(deps.db, accounts);
  await deps.throttle.trust(email.toLowerCase(), ip);
}
