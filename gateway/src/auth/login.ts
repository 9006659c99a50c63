import { eq } from 'drizzle-orm';
import type { Deps } from '../deps';
import { findLiveUserByEmail } from '../db/users';
import { users, type UserRow } from '../db/schema';
import { HttpError } from '../errors';
import { burnPasswordCheck, verifyPassword } from './passwords';
import { guardedPasswordCheck, TOO_MANY_SIGN_INS } from './throttle';
import { signToken } from './tokens';

export const INVALID_CREDENTIALS = 'Invalid credentials, please try again.';

/**
 * Sign in: a token, or 401 with the same message and about the same time whether the e-mail is
 * unknown or the password wrong; 429 while the guessing limits hold the account for this client
 * address (auth/guess-policy.ts), decided before the account is looked up.
 */
export async function login(deps: Deps, email: string, password: string, address: string): Promise<string> {
  const found: { user: UserRow | null } = { user: null };
  const ok = await guardedPasswordCheck(
    deps.throttle,
    email,
    address,
    async () => {
      found.user = await findLiveUserByEmail(deps.db, email);
      return found.user ? verifyPassword(found.user.passwordHash, password) : burnPasswordCheck(password);
    },
    TOO_MANY_SIGN_INS,
  );
  const { user } = found;
  if (!user || !ok) throw new HttpError(401, INVALID_CREDENTIALS);
  // The team grid's "Last sign-in" (account/users).
  await deps.db.update(users).set({ lastSignInAt: deps.clock() }).where(eq(users.id, user.id));
  return signToken(deps.config, {
    userId: user.id,
    tenantId: user.tenantId,
    role: user.role,
    tokenVersion: user.tokenVersion,
  });
}
