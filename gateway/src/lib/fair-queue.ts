/**
 * The admission rule of the gateway, as a pure data structure (no timers, no I/O): how many requests
 * are worked on at once, in all and per lane (a tenant, or a client address for requests without
 * one), which waiting request goes next, and when a request is refused at once.
 *
 * - A request runs at once when fewer than `concurrency` run in all and fewer than
 *   `laneConcurrency` run in its lane, and none of its lane is waiting (first come, first served).
 * - Otherwise it waits at the back of its lane's queue, unless that queue holds `laneQueue` requests
 *   or all queues together hold `queue`: then it is refused ('full': the caller answers 503).
 * - When a request ends, the next to run is taken lane by lane in turn (round robin over the lanes
 *   that have requests waiting and room to run), each lane's queue in order of arrival. So a lane
 *   with 200 waiting requests delays another lane's next request by one turn, not by 200.
 * - {@link FairQueue.expire} takes the requests that have waited too long (oldest first); the caller
 *   answers them 503 instead of holding their connections.
 */
export interface FairQueueLimits {
  /** Requests worked on at once, in all. */
  concurrency: number;
  /** Requests worked on at once per lane. */
  laneConcurrency: number;
  /** Waiting requests per lane before the next is refused. */
  laneQueue: number;
  /** Waiting requests in all before the next is refused. */
  queue: number;
}

export type Admission = 'run' | 'queued' | 'full';

/** Lanes kept while idle (see FairQueue.forgetIfIdle). */
export const IDLE_LANES = 256;

interface Waiting<T> {
  item: T;
  /** When it started waiting (the caller's clock). */
  at: number;
}

class Lane<T> {
  running = 0;
  /** In order of arrival; `head` is the next to run (shifting an array per request costs a copy). */
  waiting: (Waiting<T> | undefined)[] = [];
  head = 0;
  /** Whether the lane is in the round-robin ring. */
  inRing = false;

  constructor(readonly key: string) {}

  get queued(): number {
    return this.waiting.length - this.head;
  }

  take(): Waiting<T> | undefined {
    const next = this.waiting[this.head];
    if (next === undefined) return undefined;
    this.waiting[this.head] = undefined;
    this.head += 1;
    if (this.head === this.waiting.length) {
      this.waiting = [];
      this.head = 0;
    } else if (this.head >= 64 && this.head * 2 >= this.waiting.length) {
      this.waiting = this.waiting.slice(this.head);
      this.head = 0;
    }
    return next;
  }
}

export class FairQueue<T> {
  private readonly byKey = new Map<string, Lane<T>>();
  /** Lanes with waiting requests, in turn order: the first one with room runs next. */
  private ring: Lane<T>[] = [];
  private runningCount = 0;
  private queuedCount = 0;

  constructor(readonly limits: FairQueueLimits) {}

  /** Requests running now. */
  get running(): number {
    return this.runningCount;
  }

  /** Requests waiting now. */
  get queued(): number {
    return this.queuedCount;
  }

  /** Lanes known: those with requests running or waiting, and up to {@link IDLE_LANES} idle ones. */
  get lanes(): number {
    return this.byKey.size;
  }

  /** Requests running and waiting in one lane. */
  laneLoad(key: string): { running: number; queued: number } {
    const lane = this.byKey.get(key);
    return { running: lane?.running ?? 0, queued: lane?.queued ?? 0 };
  }

  /**
   * A request of `key` arrives: true when it may run now (it is counted as running); otherwise the
   * caller {@link wait}s it or refuses it.
   */
  tryRun(key: string): boolean {
    const { concurrency, laneConcurrency } = this.limits;
    if (this.runningCount >= concurrency) return false;
    let lane = this.byKey.get(key);
    if (lane === undefined) {
      lane = new Lane<T>(key);
      this.byKey.set(key, lane);
    } else if (lane.queued > 0 || lane.running >= laneConcurrency) return false;
    lane.running += 1;
    this.runningCount += 1;
    return true;
  }

  /** A request of `key` that may not run now, at time `at`: it waits its turn, or is refused ('full'). */
  wait(key: string, item: T, at: number): 'queued' | 'full' {
    const { laneQueue, queue } = this.limits;
    let lane = this.byKey.get(key);
    if (lane === undefined) {
      if (laneQueue === 0 || this.queuedCount >= queue) return 'full';
      lane = new Lane<T>(key);
      this.byKey.set(key, lane);
    } else if (lane.queued >= laneQueue || this.queuedCount >= queue) return 'full';
    lane.waiting.push({ item, at });
    this.queuedCount += 1;
    if (!lane.inRing) {
      lane.inRing = true;
      this.ring.push(lane);
    }
    return 'queued';
  }

  /** A request of `key` arrives at time `at`: it runs now, waits its turn, or is refused. */
  admit(key: string, item: T, at: number): Admission {
    return this.tryRun(key) ? 'run' : this.wait(key, item, at);
  }

  /**
   * A running request of `key` has ended: the requests that run next, in the order to start them
   * (each already counted as running).
   */
  release(key: string): T[] {
    const lane = this.byKey.get(key);
    if (lane === undefined || lane.running === 0) throw new Error(`no running request in lane ${key}`);
    lane.running -= 1;
    this.runningCount -= 1;
    const started = this.dispatch();
    this.forgetIfIdle(lane);
    return started;
  }

  /** Takes every request that started waiting before `before` (oldest first in each lane), to be refused. */
  expire(before: number): T[] {
    const expired: T[] = [];
    if (this.queuedCount === 0) return expired;
    for (const lane of this.ring) {
      for (let next = lane.waiting[lane.head]; next !== undefined && next.at < before; next = lane.waiting[lane.head]) {
        lane.take();
        this.queuedCount -= 1;
        expired.push(next.item);
      }
    }
    this.ring = this.ring.filter((lane) => {
      if (lane.queued > 0) return true;
      lane.inRing = false;
      this.forgetIfIdle(lane);
      return false;
    });
    // Nothing new can run: an expiry frees no running slot, and a lane with room had nothing waiting.
    return expired;
  }

  /** Starts waiting requests while there is room, taking the lanes in turn. */
  private dispatch(): T[] {
    const started: T[] = [];
    const { concurrency, laneConcurrency } = this.limits;
    while (this.runningCount < concurrency && this.queuedCount > 0) {
      const index = this.ring.findIndex((lane) => lane.running < laneConcurrency);
      if (index < 0) break;
      const lane = this.ring[index];
      if (lane === undefined) break;
      const next = lane.take();
      if (next === undefined) break;
      this.queuedCount -= 1;
      lane.running += 1;
      this.runningCount += 1;
      started.push(next.item);
      // This lane had its turn: to the back of the ring, or out of it when nothing of it waits.
      this.ring.splice(index, 1);
      if (lane.queued > 0) this.ring.push(lane);
      else lane.inRing = false;
    }
    return started;
  }

  /**
   * Idle lanes are kept for their next request (a lane made and dropped per request cost the hot
   * routes), up to {@link IDLE_LANES}; beyond that every idle lane is forgotten.
   */
  private forgetIfIdle(lane: Lane<T>): void {
    if (lane.running !== 0 || lane.queued !== 0 || lane.inRing) return;
    if (this.byKey.size <= IDLE_LANES) return;
    this.byKey.delete(lane.key);
  }
}
