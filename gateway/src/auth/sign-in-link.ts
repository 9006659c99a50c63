/**
 * Signing in while an account is under a distributed guessing attack (its account-wide limit reached,
 * auth/guess-policy.ts): the right password does not answer a session but e-mails a sign-in link to the
 * account's address, so the owner gets in and a guesser learns nothing (the answer is the same for a
 * wrong password and an unknown e-mail). The link carries a random 256-bit one-time token, stored only
 * as its SHA-256 (one-time-tokens.ts): single use, valid `SIGN_IN_LINK_TTL_SECONDS` (15 minutes), at
 * most LINKS_PER_HOUR e-mails per account and hour. Opening it signs in and makes the opening address
 * known-good for the account, as a password reset does.
 */
import { eq } from 'drizzle-orm';
import type { Deps } from '../deps';
import { users, type UserRow } from '../db/schema';
import { findLiveUserById } from '../db/users';
import { badRequest } from '../errors';
import { isUuid } from '../lib/db-helpers';
import { signInLinkMail } from '../mail/messages';
import { consumeOneTimeToken, countIssuedSince, issueOneTimeToken } from './one-time-tokens';
import { signToken } from './tokens';

/** The sign-in answer while the account's limit is reached (202), the same for any password. */
export function signInLinkSent(ttlMs: number): string {
  const minutes = Math.round(ttlMs / 60_000);
  return (
    'There have been too many failed sign-in attempts on this account. If the e-mail address and password ' +
    `are correct, we have sent a sign-in link to that address. It expires in ${minutes} minutes.`
  );
}
export const BAD_SIGN_IN_LINK = 'This sign-in link is invalid or has expired. Please sign in again.';

/** Sign-in link e-mails per account and hour; more right passwords are answered the same but send nothing. */
const LINKS_PER_HOUR = 5;

/** E-mails a sign-in link to `user`. The caller answers without waiting for it (timing tells nothing). */
export async function sendSignInLink(deps: Deps, user: UserRow): Promise<void> {
  const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
  if ((await countIssuedSince(deps.db, user.id, 'sign_in_link', hourAgo)) >= LINKS_PER_HOUR) return;
  const ttlMs = deps.config.signInLinkTtlMs;
  const token = await issueOneTimeToken(deps.db, user.id, 'sign_in_link', ttlMs);
  const link = `${deps.config.consoleUrl}/sign-in/${encodeURIComponent(user.id)}/${encodeURIComponent(token)}`;
  await deps.mailer.send(signInLinkMail(user.email, user.firstName, link, Math.round(ttlMs / 60_000)));
}

/** Uses a sign-in link once: a session token for its user; 400 on `token` for anything else. */
export async function signInWithLink(deps: Deps, userId: string, token: string, ip: string): Promise<string> {
  const bad = () => badRequest(BAD_SIGN_IN_LINK, { token: [BAD_SIGN_IN_LINK] });
  if (!isUuid(userId) || !(await consumeOneTimeToken(deps.db, userId, 'sign_in_link', token))) throw bad();
  const user = await findLiveUserById(deps.db, userId);
  if (!user) throw bad();
  await deps.db.update(users).set({ lastSignInAt: deps.clock() }).where(eq(users.id, user.id));
  // The person at this address holds the account's mail: known-good from now on, as after a reset.
  await deps.throttle.trust(user.email.toLowerCase(), ip);
  return signToken(deps.config, {
    userId: user.id,
    tenantId: user.tenantId,
    role: user.role,
    tokenVersion: user.tokenVersion,
  });
}
