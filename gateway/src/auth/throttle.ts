import { and, desc, eq, gt, lt, ne } from 'drizzle-orm';
import type { ThrottleConfig } from '../config';
import type { Database } from '../db/index';
import { loginAttempts } from '../db/schema';

export interface Throttled {
  retryAfterSeconds: number;
}

/**
 * Sign-in throttling per account (e-mail, known or not) and per client address, stored in the
 * database so it holds across restarts and gateway processes.
 *
 * Each attempt is recorded *before* the password is checked and counts as a failure until it
 * succeeds, so parallel guesses cannot slip past the limit. A success removes its own record and
 * clears the account's earlier failures (they still count for the address).
 */
export class LoginThrottle {
  private lastPrune = 0;

  constructor(
    private readonly db: Database,
    private readonly settings: ThrottleConfig,
  ) {}

  /** Reserve an attempt: its id, or how long to wait when the account or the address is locked. */
  async begin(email: string, address: string): Promise<{ attemptId: string } | Throttled> {
    await this.prune();
    const [row] = await this.db
      .insert(loginAttempts)
      .values({ email, address, createdAt: new Date() })
      .returning({ id: loginAttempts.id });
    if (!row) throw new Error('login attempt was not recorded');
    const since = new Date(Date.now() - this.settings.windowMs);
    const waits = await Promise.all([
      this.waitFor(
        and(eq(loginAttempts.email, email), eq(loginAttempts.accountCleared, false)),
        row.id,
        since,
        this.settings.accountMax,
      ),
      this.waitFor(eq(loginAttempts.address, address), row.id, since, this.settings.addressMax),
    ]);
    const wait = Math.max(...waits);
    if (wait > 0) {
      // A refused attempt does not count: the lock ends when the window moves past old failures.
      await this.db.delete(loginAttempts).where(eq(loginAttempts.id, row.id));
      return { retryAfterSeconds: wait };
    }
    return { attemptId: row.id };
  }

  /** The password was right: forget this attempt and clear the account's failures. */
  async succeeded(attemptId: string, email: string): Promise<void> {
    await this.db.delete(loginAttempts).where(eq(loginAttempts.id, attemptId));
    await this.db
      .update(loginAttempts)
      .set({ accountCleared: true })
      .where(and(eq(loginAttempts.email, email), eq(loginAttempts.accountCleared, false)));
  }

  /** Seconds until fewer than `max` earlier failures remain in the window (0: not locked). */
  private async waitFor(scope: ReturnType<typeof and>, ownId: string, since: Date, max: number): Promise<number> {
    const rows = await this.db
      .select({ createdAt: loginAttempts.createdAt })
      .from(loginAttempts)
      .where(and(scope, ne(loginAttempts.id, ownId), gt(loginAttempts.createdAt, since)))
      .orderBy(desc(loginAttempts.createdAt))
      .limit(max);
    if (rows.length < max) return 0;
    const oldest = rows[rows.length - 1];
    if (!oldest) return 1; // max is 0: signing in is switched off
    return Math.max(1, Math.ceil((oldest.createdAt.getTime() + this.settings.windowMs - Date.now()) / 1000));
  }

  /** Drop records that no longer count, at most once a minute. */
  private async prune(): Promise<void> {
    const now = Date.now();
    if (now - this.lastPrune < 60_000) return;
    this.lastPrune = now;
    await this.db.delete(loginAttempts).where(lt(loginAttempts.createdAt, new Date(now - this.settings.windowMs)));
  }
}
