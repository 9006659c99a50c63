/**
 * Group commit: what several callers ask to commit while a transaction runs is committed together by
 * the next one, so the sender pays one transaction for many messages, however many connections wait.
 *
 * - `request(item)`: committed in the next transaction; resolves with that item's result once it
 *   is committed (a failed transaction rejects every request of it).
 * - `ride(item)`: needs no answer (an SMTP answer to record): it rides along with the next
 *   transaction that commits a request, and within `rideDelayMs` at the latest when no request
 *   comes. Riders alone never start a transaction before their delay: the sender's connections wait
 *   for the transaction in progress, and one of riders only makes them wait longer.
 * - `between(fn)`: runs `fn` when no transaction runs (before the next one starts): a read that must
 *   see every commit either done in the database and in the caller's memory, or in neither.
 * - `flush()`: commits whatever waits; resolves when nothing waits or runs.
 *
 * One transaction runs at a time; requests made meanwhile wait for the next, which starts as soon as
 * the running one ends, or, with `gather`, once `enough` requests wait or `waitMs` has passed since
 * they began waiting for a transaction to start (none ran, or the last one ended), and takes at most
 * `most` of them (the rest wait for the next, which starts at once). Gathering is for a database
 * whose commits cost a fixed price per statement on one thread (db/batch-commit.ts).
 */
export class GroupCommit<Request, Result, Rider> {
  private requests: { item: Request; resolve: (r: Result) => void; reject: (e: unknown) => void }[] = [];
  private riders: Rider[] = [];
  private betweens: (() => Promise<void>)[] = [];
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** The riders waiting are committed even without a request (their delay passed, or a flush). */
  private ridersDue = false;
  /** Requests have waited `gather.waitMs` for a transaction to start (or a flush asked): commit what waits. */
  private gatherDue = false;
  private gatherTimer: NodeJS.Timeout | null = null;
  /** The error of the last failed transaction (riders of it are lost; the caller stops). */
  failure: unknown = null;

  constructor(
    private readonly commit: (requests: Request[], riders: Rider[]) => Promise<Result[]>,
    private readonly rideDelayMs = 200,
    private readonly gather: { enough: number; waitMs: number; most?: number } | null = null,
  ) {}

  request(item: Request): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.requests.push({ item, resolve, reject });
      this.kick();
    });
  }

  ride(item: Rider): void {
    this.riders.push(item);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.ridersDue = true;
      this.kick();
    }, this.rideDelayMs);
    this.timer.unref();
  }

  between<T>(fn: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.betweens.push(() => fn().then(resolve, reject));
      this.kick();
    });
  }

  async flush(): Promise<void> {
    for (;;) {
      this.ridersDue = true;
      this.gatherDue = true;
      this.kick();
      if (!this.running) return;
      await this.running;
    }
  }

  /** Something to commit now: requests (enough of them, or gathered long enough), or riders that are due. */
  private waiting(): boolean {
    return this.requestsDue() || this.betweens.length > 0 || (this.ridersDue && this.riders.length > 0);
  }

  private requestsDue(): boolean {
    const n = this.requests.length;
    if (n === 0) return false;
    if (!this.gather || this.gatherDue || n >= this.gather.enough) return true;
    // Too few yet: they are committed once `waitMs` has passed since they found no transaction to join.
    this.gatherTimer ??= setTimeout(() => {
      this.gatherTimer = null;
      this.gatherDue = true;
      this.kick();
    }, this.gather.waitMs);
    return false;
  }

  private kick(): void {
    // Nothing waiting: no loop (its first check would run before `running` is set).
    if (this.running || !this.waiting()) return;
    this.running = this.loop();
  }

  private async loop(): Promise<void> {
    for (;;) {
      for (const fn of this.betweens.splice(0)) await fn();
      if (!this.waiting()) {
        // Riders left wait for their timer (set when the first of them came) or a request.
        this.running = null; // in the same turn as the check: a request made after it starts a new loop
        return;
      }
      const requests = this.requests.splice(0, this.gather?.most ?? this.requests.length);
      const riders = this.riders.splice(0);
      this.ridersDue = false;
      this.gatherDue = this.requests.length > 0; // left over by `most`: they have waited enough
      if (this.timer) {
        clearTimeout(this.timer);
        this.timer = null;
      }
      if (this.gatherTimer) {
        clearTimeout(this.gatherTimer);
        this.gatherTimer = null;
      }
      try {
        const results = await this.commit(
          requests.map((r) => r.item),
          riders,
        );
        requests.forEach((r, i) => r.resolve(results[i] as Result));
      } catch (error) {
        this.failure = error;
        for (const r of requests) r.reject(error);
      }
    }
  }
}
