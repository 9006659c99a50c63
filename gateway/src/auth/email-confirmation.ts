import { and, eq, isNull } from 'drizzle-orm';
import type { Deps } from '../deps';
import { users } from '../db/schema';
import { badRequest, conflict, HttpError } from '../errors';
import { confirmEmailMail } from '../mail/messages';
import { confirmEmailChange, EMAIL_CHANGED } from './email-change';
import { consumeOneTimeToken, countIssuedSince, issueOneTimeToken } from './one-time-tokens';
import { sessionChanged } from './session-cache';

export const CONFIRMATION_SENT = 'We have sent you a link to confirm your e-mail address.';
export const EMAIL_CONFIRMED = 'Your e-mail address is confirmed.';
const BAD_CONFIRM_TOKEN = 'This confirmation link is invalid or has expired. Please request a new one.';
const CONFIRMATIONS_PER_HOUR = 5;

interface Recipient {
  id: string;
  email: string;
  firstName: string;
  emailConfirmedAt: Date | null;
}

/** E-mail a confirmation link to the user (409 when already confirmed, 429 after too many). */
export async function sendConfirmationLink(deps: Deps, user: Recipient): Promise<void> {
  if (user.emailConfirmedAt) throw conflict('Your e-mail address is already confirmed.');
  const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
  if ((await countIssuedSince(deps.db, user.id, 'email_confirmation', hourAgo)) >= CONFIRMATIONS_PER_HOUR) {
    throw new HttpError(429, 'We have sent several confirmation e-mails already. Please try again later.', undefined, {
      'Retry-After': '3600',
    });
  }
  const token = await issueOneTimeToken(deps.db, user.id, 'email_confirmation', deps.config.confirmTokenTtlMs);
  const query = new URLSearchParams({ user_id: user.id, token });
  await deps.mailer.send(
    confirmEmailMail(user.email, user.firstName, `${deps.config.consoleUrl}/confirm-email?${query}`),
  );
}

/**
 * Confirm with a token from the e-mail (single use): the account's address, or a new sign-in
 * address (Your Profile) when the token is an e-mail-change one. Returns the message to show.
 */
export async function confirmEmail(deps: Deps, userId: string, token: string): Promise<string> {
  const ok = await deps.db.transaction(async (tx) => {
    if (!(await consumeOneTimeToken(tx, userId, 'email_confirmation', token))) return false;
    await tx
      .update(users)
      .set({ emailConfirmedAt: new Date() })
      .where(and(eq(users.id, userId), isNull(users.emailConfirmedAt)));
    return true;
  });
  if (ok) {
    sessionChanged(deps.db, `user:${userId}`);
    return EMAIL_CONFIRMED;
  }
  if (await confirmEmailChange(deps, userId, token)) return EMAIL_CHANGED;
  throw badRequest(BAD_CONFIRM_TOKEN, { token: [BAD_CONFIRM_TOKEN] });
}
