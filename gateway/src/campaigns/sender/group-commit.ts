/**
 * Group commit: what several callers ask to commit while a transaction runs is committed together by
 * the next one, so the sender pays one transaction for many messages, however many connections wait.
 *
 * - `request(item)`: committed in the next transaction; resolves with that item's result once it
 *   is committed (a failed transaction rejects every request of it).
 * - `ride(item)`: needs no answer (an SMTP answer to record): it rides along with the next
 *   transaction, and within `rideDelayMs` at the latest when no request comes.
 * - `flush()`: commits whatever waits; resolves when nothing waits or runs.
 *
 * One transaction runs at a time; requests made meanwhile wait for the next, which starts as soon as
 * the running one ends.
 */
export class GroupCommit<Request, Result, Rider> {
  private requests: { item: Request; resolve: (r: Result) => void; reject: (e: unknown) => void }[] = [];
  private riders: Rider[] = [];
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** The error of the last failed transaction (riders of it are lost; the caller stops). */
  failure: unknown = null;

  constructor(
    private readonly commit: (requests: Request[], riders: Rider[]) => Promise<Result[]>,
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
      this.kick();
    }, this.rideDelayMs);
    this.timer.unref();
  }

  async flush(): Promise<void> {
    this.kick();
    while (this.running) await this.running;
  }

  private kick(): void {
    // Nothing waiting: no loop (its first check would run before `running` is set).
    if (this.running || (this.requests.length === 0 && this.riders.length === 0)) return;
    this.running = this.loop();
  }

  private async loop(): Promise<void> {
    for (;;) {
      const requests = this.requests.splice(0);
      const riders = this.riders.splice(0);
      if (requests.length === 0 && riders.length === 0) {
        this.running = null; // in the same turn as the check: a request made after it starts a new loop
        return;
      }
      if (this.timer) {
        clearTimeout(this.timer);
        this.timer = null;
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
