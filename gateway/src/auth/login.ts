import { eq } from 'drizzle-orm';
import type { Deps } from '../deps';
import { findLiveUserByEmail } from '../db/users';
import { users, type UserRow } from '../db/schema';
import { HttpError } from '../errors';
import { burnPasswordCheck, verifyPassword } from './passwords';
import { sendSignInLink } from './sign-in-link';
import { TOO_MANY_SIGN_INS, tooManyAttempts } from './throttle';
import { signToken } from './tokens';

export const INVALID_CREDENTIALS = 'Invalid credentials, please try again.';

/** A session, or (the account's guessing limit reached) "a sign-in link was sent if the password was right". */
export type LoginResult = { token: string } | { linkSent: true };

/**
 * Sign in: a token, or 401 with the same message and about the same time whether the e-mail is
 * unknown or the password wrong; 429 while this client address must wait (auth/guess-policy.ts),
 * decided before the account is looked up. While the account-wide limit is reached, every password is
 * checked but answered alike (`linkSent`), and a right one e-mails a sign-in link (sign-in-link.ts).
 */
export async function login(deps: Deps, email: string, password: string, address: string): Promise<LoginResult> {
  const attempt = await deps.throttle.begin(email, address, { link: true });
  if ('retryAfterSeconds' in attempt) throw tooManyAttempts(TOO_MANY_SIGN_INS, attempt.retryAfterSeconds);
  const user: UserRow | null = await findLiveUserByEmail(deps.db, email);
  const ok = user ? await verifyPassword(user.passwordHash, password) : await burnPasswordCheck(password);
  if (attempt.mode === 'link') {
    // The answer does not wait for what a right password does, so its timing tells nothing either.
    if (user && ok) {
      deps.background.run(async () => {
        await deps.throttle.settled(attempt.attemptId);
        await sendSignInLink(deps, user);
      });
    }
    return { linkSent: true };
  }
  if (!user || !ok) throw new HttpError(401, INVALID_CREDENTIALS);
  await deps.throttle.succeeded(attempt.attemptId, email, address);
  // The team grid's "Last sign-in" (account/users).
  await deps.db.update(users).set({ lastSignInAt: deps.clock() }).where(eq(users.id, user.id));
  const token = await signToken(deps.config, {
    userId: user.id,
    tenantId: user.tenantId,
    role: user.role,
    tokenVersion: user.tokenVersion,
  });
  return { token };
}
