/**
 * Password-guessing limits, stored in the database so every gateway process (and a restart) sees the
 * same counts: the rule is auth/guess-policy.ts; this is its bookkeeping.
 *
 * Each account's decision runs in a short transaction holding an advisory lock on the account, so two
 * processes cannot both take its last allowed guess. A check is recorded before the password is
 * checked and counts as a failure until it succeeds. A refused request records nothing: it checked no
 * password, so a stranger hammering an account neither guesses nor keeps its owner out.
 */
import { and, desc, eq, gt, lt, sql } from 'drizzle-orm';
import type { ThrottleConfig } from '../config';
import type { Database } from '../db/index';
import { loginAttempts, loginKnownAddresses } from '../db/schema';
import { HttpError } from '../errors';
import { clientKey } from '../lib/client-key';
import { decideGuess } from './guess-policy';

export interface Throttled {
  retryAfterSeconds: number;
}

/**
 * A password check reserved: `mode` 'link' when the account-wide limit is reached (guess-policy.ts): the
 * check's answer must not tell a right password from a wrong one.
 */
export interface Attempt {
  attemptId: string;
  mode: 'password' | 'link';
}

export const TOO_MANY_SIGN_INS = 'Too many sign-in attempts.';
export const TOO_MANY_PASSWORD_CHECKS = 'Too many wrong passwords.';

/** 429 with Retry-After and a sentence saying how long to wait. */
export function tooManyAttempts(lead: string, retryAfterSeconds: number): HttpError {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const wait = minutes <= 1 ? 'a minute' : `${minutes} minutes`;
  return new HttpError(429, `${lead} Please wait ${wait} and try again, or reset your password.`, undefined, {
    'Retry-After': String(retryAfterSeconds),
  });
}

export class LoginThrottle {
  private lastPrune = 0;

  constructor(
    private readonly db: Database,
    private readonly settings: ThrottleConfig,
  ) {}

  /**
   * Reserve a password check for `account` (a lower-case e-mail) from `ip`: its id and mode, or how long
   * to wait. Without `link` (checks that cannot answer with an e-mailed link: a password change, joining
   * a community) the account-wide limit refuses instead.
   */
  async begin(account: string, ip: string, options: { link?: boolean } = {}): Promise<Attempt | Throttled> {
    await this.prune(Date.now());
    const address = clientKey(ip);
    const { windowMs, addressMax, knownAddressMs } = this.settings;
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`login:${account}`}, 0))`);
      // The time is read once the lock is held: a check that waited for the lock must not date itself
      // before the failures recorded by the checks it waited for (they would look like future ones,
      // and a stranger would be told to wait for nothing).
      const now = Date.now();
      const since = new Date(now - windowMs);
      const failures = await tx
        .select({ at: loginAttempts.createdAt, address: loginAttempts.address, forgiven: loginAttempts.forgiven })
        .from(loginAttempts)
        .where(and(eq(loginAttempts.email, account), gt(loginAttempts.createdAt, since)));
      const known = await tx
        .select({ address: loginKnownAddresses.address })
        .from(loginKnownAddresses)
        .where(
          and(
            eq(loginKnownAddresses.email, account),
            eq(loginKnownAddresses.address, address),
            gt(loginKnownAddresses.lastSuccessAt, new Date(now - knownAddressMs)),
          ),
        );
      const fromAddress = await tx
        .select({ at: loginAttempts.createdAt })
        .from(loginAttempts)
        .where(and(eq(loginAttempts.address, address), gt(loginAttempts.createdAt, since)))
        .orderBy(desc(loginAttempts.createdAt))
        .limit(Math.max(1, addressMax));
      const decision = decideGuess(
        {
          now,
          address,
          accountFailures: failures.map((f) => ({ ...f, at: f.at.getTime() })),
          addressFailures: fromAddress.map((f) => f.at.getTime()),
          knownAddress: known.length > 0,
        },
        this.settings,
      );
      const refuse = (ms: number) => ({ retryAfterSeconds: Math.max(1, Math.ceil(Math.min(ms, windowMs) / 1000)) });
      if (!decision.allowed) return refuse(decision.retryAfterMs);
      if (decision.mode === 'link' && !options.link) return refuse(decision.untilMs - now);
      const [row] = await tx
        .insert(loginAttempts)
        .values({ email: account, address, createdAt: new Date(now) })
        .returning({ id: loginAttempts.id });
      if (!row) throw new Error('login attempt was not recorded');
      return { attemptId: row.id, mode: decision.mode };
    });
  }

  /** The password was right, but the address proved nothing yet (a sign-in link was sent): no failure. */
  async settled(attemptId: string): Promise<void> {
    await this.db.delete(loginAttempts).where(eq(loginAttempts.id, attemptId));
  }

  /** The password was right: this check was no failure, and the address is known-good for the account. */
  async succeeded(attemptId: string, account: string, ip: string): Promise<void> {
    await this.db.delete(loginAttempts).where(eq(loginAttempts.id, attemptId));
    await this.trust(account, ip);
  }

  /**
   * The person at `ip` proved to own the account (right password, or a password reset from its e-mail):
   * the address is known-good and its earlier failures on the account were typos. They still count
   * towards the account's hourly limit.
   */
  async trust(account: string, ip: string): Promise<void> {
    const address = clientKey(ip);
    const now = new Date();
    await this.db
      .update(loginAttempts)
      .set({ forgiven: true })
      .where(
        and(eq(loginAttempts.email, account), eq(loginAttempts.address, address), eq(loginAttempts.forgiven, false)),
      );
    await this.db
      .insert(loginKnownAddresses)
      .values({ email: account, address, lastSuccessAt: now })
      .onConflictDoUpdate({
        target: [loginKnownAddresses.email, loginKnownAddresses.address],
        set: { lastSuccessAt: now },
      });
  }

  /** Drop failures out of the window and addresses not used for long, at most once a minute. */
  private async prune(now: number): Promise<void> {
    if (now - this.lastPrune < 60_000) return;
    this.lastPrune = now;
    await this.db.delete(loginAttempts).where(lt(loginAttempts.createdAt, new Date(now - this.settings.windowMs)));
    await this.db
      .delete(loginKnownAddresses)
      .where(lt(loginKnownAddresses.lastSuccessAt, new Date(now - this.settings.knownAddressMs)));
  }
}

/**
 * A password check under the guessing limits, for sign-in and for any check of a current password
 * (`account` is the lower-case e-mail: guesses through either route count together). Throws 429
 * (`lead` plus how long to wait) without checking when the limits say so; otherwise runs `check`
 * and answers its result, recording a failure or a success.
 */
export async function guardedPasswordCheck(
  throttle: LoginThrottle,
  account: string,
  ip: string,
  check: () => Promise<boolean>,
  lead = TOO_MANY_PASSWORD_CHECKS,
): Promise<boolean> {
  const attempt = await throttle.begin(account, ip);
  if ('retryAfterSeconds' in attempt) throw tooManyAttempts(lead, attempt.retryAfterSeconds);
  const ok = await check();
  if (ok) await throttle.succeeded(attempt.attemptId, account, ip);
  return ok;
}
