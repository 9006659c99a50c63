import type { Deps } from '../deps';
import { findUserByEmail } from '../db/users';
import { HttpError } from '../errors';
import { burnPasswordCheck, verifyPassword } from './passwords';
import { signToken } from './tokens';

export const INVALID_CREDENTIALS = 'Invalid credentials, please try again.';

function tooManyAttempts(retryAfterSeconds: number) {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const wait = minutes <= 1 ? 'a minute' : `${minutes} minutes`;
  return new HttpError(429, `Too many sign-in attempts. Please wait ${wait} and try again.`, undefined, {
    'Retry-After': String(retryAfterSeconds),
  });
}

/**
 * Sign in: a token, or 401 with the same message and about the same time whether the e-mail is
 * unknown or the password wrong; 429 while the account or the client address is throttled.
 */
export async function login(deps: Deps, email: string, password: string, address: string): Promise<string> {
  const attempt = await deps.throttle.begin(email, address);
  if ('retryAfterSeconds' in attempt) throw tooManyAttempts(attempt.retryAfterSeconds);

  const user = await findUserByEmail(deps.db, email);
  const ok = user ? await verifyPassword(user.passwordHash, password) : await burnPasswordCheck(password);
  if (!user || !ok) throw new HttpError(401, INVALID_CREDENTIALS);

  await deps.throttle.succeeded(attempt.attemptId, email);
  return signToken(deps.config, {
    userId: user.id,
    tenantId: user.tenantId,
    role: user.role,
    tokenVersion: user.tokenVersion,
  });
}
