/**
 * Group commit: what several callers ask to commit while a transaction runs is committed together by
 * the next one, so the sender pays one transaction for many messages, however many connections wait.
 *
 * - `request(item)`: committed in the next transaction; resolves with that item's result once it
 *   is committed (a failed transaction rejects every request of it).
 * - `ride(item)`: needs no answer (an SMTP answer to record): it rides along with the next
 *   transaction that commits a request, and within `rideDelayMs` at the latest when no request
 *   comes. Riders alone never start a transaction before their delay: the sender's connections wait
 *   for the transaction in progress, and one of riders only made them wait longer (a sixth of the
 *   transactions of a send were riders alone).
 * - `between(fn)`: runs `fn` when no transaction runs (before the next one starts): a read that must
 *   see every commit either done in the database and in the caller's memory, or in neither.
 * - `flush()`: commits whatever waits; resolves when nothing waits or runs.
 *
 * The commit function may hand the results out before it returns (`settle`): the sender does so the
 * moment its COMMIT is on the wire, before the server's answer (see send-job.ts `commitGroup`).
 *
 * One transaction runs at a time; requests made meanwhile wait for the next, which starts as soon as
 * the running one ends.
 */
export class GroupCommit<Request, Result, Rider> {
  private requests: { item: Request; resolve: (r: Result) => void; reject: (e: unknown) => void }[] = [];
  private riders: Rider[] = [];
  private betweens: (() => Promise<void>)[] = [];
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** The riders waiting are committed even without a request (their delay passed, or a flush). */
  private ridersDue = false;
  /** The error of the last failed transaction (riders of it are lost; the caller stops). */
  failure: unknown = null;

  constructor(
    private readonly commit: (
      requests: Request[],
      riders: Rider[],
      settle: (results: Result[]) => void,
    ) => Promise<Result[]>,
    private readonly rideDelayMs = 200,
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
      this.kick();
      if (!this.running) return;
      await this.running;
    }
  }

  /** Something to commit now: a request, or riders that are due. */
  private waiting(): boolean {
    return this.requests.length > 0 || this.betweens.length > 0 || (this.ridersDue && this.riders.length > 0);
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
      const requests = this.requests.splice(0);
      const riders = this.riders.splice(0);
      this.ridersDue = false;
      if (this.timer) {
        clearTimeout(this.timer);
        this.timer = null;
      }
      // A request resolves once (with the results handed out early, when they were).
      const settle = (results: Result[]) => requests.forEach((r, i) => r.resolve(results[i] as Result));
      try {
        settle(
          await this.commit(
            requests.map((r) => r.item),
            riders,
            settle,
          ),
        );
      } catch (error) {
        this.failure = error;
        for (const r of requests) r.reject(error);
      }
    }
  }
}
