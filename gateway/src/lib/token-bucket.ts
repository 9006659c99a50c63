/**
 * Token buckets in memory, one per key (API keys: api-keys/key-auth.ts): `rate` tokens a second up to
 * `burst`; each request takes one. Pure apart from the map (the clock is passed in), so the rule is
 * tested without waiting. Per process: N gateway processes allow N times the rate in all.
 */
export interface BucketLimit {
  /** Tokens added per second (0: no limit). */
  rate: number;
  /** Most tokens a bucket holds: the requests allowed at once after a quiet spell. */
  burst: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Buckets kept before full (idle) ones are dropped: a full bucket is the same as none. */
const MAX_BUCKETS = 10_000;

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly limit: BucketLimit) {}

  /** Takes a token for `key` at `nowMs`: 0 when taken, else the whole seconds to wait (at least 1). */
  take(key: string, nowMs: number): number {
    const { rate, burst } = this.limit;
    if (rate <= 0) return 0;
    const capacity = Math.max(1, burst);
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= MAX_BUCKETS) this.dropFull(nowMs);
      bucket = { tokens: capacity, at: nowMs };
      this.buckets.set(key, bucket);
    } else {
      bucket.tokens = Math.min(capacity, bucket.tokens + ((nowMs - bucket.at) / 1000) * rate);
      bucket.at = nowMs;
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / rate));
  }

  private dropFull(nowMs: number): void {
    const { rate, burst } = this.limit;
    for (const [key, b] of this.buckets) {
      if (b.tokens + ((nowMs - b.at) / 1000) * rate >= burst) this.buckets.delete(key);
    }
    // All busy: the oldest goes (it starts full again, a burst at most).
    if (this.buckets.size >= MAX_BUCKETS) this.buckets.delete(this.buckets.keys().next().value ?? '');
  }

  get size(): number {
    return this.buckets.size;
  }
}
