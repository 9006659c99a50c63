/**
 * Fixed-window counters for the public sign-up endpoints (per client address, per widget or
 * community, per e-mail address), stored in `public_throttle` so they hold across restarts and
 * gateway processes. One upsert per counter: parallel requests cannot slip past the limit.
 */
import { lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/index';
import { publicThrottle } from '../../db/schema';
import { HttpError } from '../../errors';

export const TOO_MANY_SIGNUPS = 'Too many sign-ups from here. Please try again later.';

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

function expandIpv6(ip: string): string[] | null {
  const halves = ip.split('::');
  if (halves.length > 2) return null;
  const part = (s: string | undefined) => (s ? s.split(':') : []);
  const head = part(halves[0]);
  const tail = part(halves[1]);
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 0) return null;
  const groups = [...head, ...Array<string>(Math.max(0, missing)).fill('0'), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  return groups.map((g) => g.toLowerCase().padStart(4, '0'));
}

/**
 * The throttling key of a client address: IPv4 as is (also when IPv4-mapped), IPv6 by its /64
 * (one subscriber line usually owns a whole /64, so counting single addresses would not limit anything).
 */
export function clientKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (!ip.includes(':')) return ip;
  const groups = expandIpv6(ip.replace(/%.*$/, ''));
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : ip;
}

export interface Limit {
  key: string;
  max: number;
}

export class PublicThrottle {
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

  /** Counts the limits in order and stops at the first one exceeded: 429 with Retry-After. */
  async enforce(limits: readonly Limit[], message = TOO_MANY_SIGNUPS): Promise<void> {
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
