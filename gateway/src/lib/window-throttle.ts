/**
 * Fixed-window counters stored in `public_throttle` (public sign-ups, checkouts, password resets), so
 * they hold across restarts and gateway processes. One upsert per counter: parallel requests cannot
 * slip past the limit.
 */
import { lt, sql } from 'drizzle-orm';
import type { Database } from '../db/index';
import { publicThrottle } from '../db/schema';
import { HttpError } from '../errors';

/** Start (ms since epoch) of the fixed window that `nowMs` falls in. */
export function windowStart(nowMs: number, windowMs: number): number {
  const size = Math.max(1000, windowMs);
  return Math.floor(nowMs / size) * size;
}

/** Seconds to wait when `hits` (this one included) exceeds `max`; 0 when the hit is allowed. */
export function retryAfterSeconds(hits: number, max: number, nowMs: number, windowMs: number): number {
  if (hits <= max) return 0;
  const size = Math.max(1000, windowMs);
  const end = windowStart(nowMs, size) + size;
  return Math.max(1, Math.ceil((end - nowMs) / 1000));
}

export interface Limit {
  key: string;
  max: number;
}

export class WindowThrottle {
  private lastPrune = 0;

  constructor(
    private readonly db: Database,
    private readonly windowMs: number,
  ) {}

  /** Counts one hit on the key: seconds to wait when it went over `max`, else 0. */
  async hit(limit: Limit, nowMs = Date.now()): Promise<number> {
    await this.prune(nowMs);
    const [row] = await this.db
      .insert(publicThrottle)
      .values({ key: limit.key, windowStart: new Date(windowStart(nowMs, this.windowMs)), hits: 1 })
      .onConflictDoUpdate({
        target: [publicThrottle.key, publicThrottle.windowStart],
        set: { hits: sql`${publicThrottle.hits} + 1` },
      })
      .returning({ hits: publicThrottle.hits });
    return retryAfterSeconds(row?.hits ?? Number.POSITIVE_INFINITY, limit.max, nowMs, this.windowMs);
  }

  /**
   * Takes `count` from the key's window only when the total stays within `max`: 0 when taken, else
   * the seconds until the window ends (nothing taken). One statement, so parallel requests cannot
   * take more than `max` together.
   */
  async take(limit: Limit, count: number, nowMs = Date.now()): Promise<number> {
    await this.prune(nowMs);
    const taken = await this.db
      .insert(publicThrottle)
      .values({ key: limit.key, windowStart: new Date(windowStart(nowMs, this.windowMs)), hits: count })
      .onConflictDoUpdate({
        target: [publicThrottle.key, publicThrottle.windowStart],
        set: { hits: sql`${publicThrottle.hits} + ${count}` },
        setWhere: sql`${publicThrottle.hits} + ${count} <= ${limit.max}`,
      })
      .returning({ hits: publicThrottle.hits });
    return taken.length > 0 && count <= limit.max
      ? 0
      : retryAfterSeconds(limit.max + 1, limit.max, nowMs, this.windowMs);
  }

  /** Counts the limits in order and stops at the first one exceeded: 429 with Retry-After. */
  async enforce(limits: readonly Limit[], message: string): Promise<void> {
    for (const limit of limits) {
      const wait = await this.hit(limit);
      if (wait > 0) throw new HttpError(429, message, undefined, { 'Retry-After': String(wait) });
    }
  }

  /** Drops windows that have ended, at most once a minute. */
  private async prune(nowMs: number): Promise<void> {
    if (nowMs - this.lastPrune < 60_000) return;
    this.lastPrune = nowMs;
    await this.db
      .delete(publicThrottle)
      .where(lt(publicThrottle.windowStart, new Date(windowStart(nowMs, this.windowMs))));
  }
}
