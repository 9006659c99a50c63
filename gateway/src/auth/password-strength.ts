/**
 * The new-password rule on the server (NIST SP 800-63B section 5.1.1.2; the rule itself is
 * @console/shared/passwords, the one the console's strength meter shows): every route that sets a
 * password refuses one that is easy to guess with 400 and the reason on the password's field, before
 * the password is hashed.
 */
import { loadPasswordChecker, passwordProblem, userInputsOf } from '@console/shared/passwords';
import { badRequest } from '../errors';

/**
 * Throws 400 `{message, errors: {[field]: [reason]}}` when `password` is too easy to guess; `known` are
 * what the person is known by (e-mail address, names, community name).
 */
export async function refuseWeakPassword(
  field: string,
  password: string,
  known: readonly (string | null | undefined)[],
): Promise<void> {
  const check = await loadPasswordChecker();
  const problem = passwordProblem(check(password, userInputsOf(known)));
  if (problem) throw badRequest(problem, { [field]: [problem] });
}
