/**
 * Send rates (messages per second; 0: unlimited): one token bucket per tenant (SEND_RATE_TENANT) and
 * one for all tenants (SEND_RATE_GLOBAL). Both are kept in the sending process's memory: with several
 * worker processes the global limit applies to each process (N processes send up to N × the limit),
 * and so does the tenant limit when one tenant's campaigns run in several processes at once.
 */
export class TokenBucket {
  private tokens: number;
  private at = Date.now();

  /** `rate` tokens per second, at most one second's worth kept. */
  constructor(private readonly rate: number) {
    this.tokens = rate;
  }

  /** Takes `n` tokens; the milliseconds to wait before using them (0: now). */
  take(n: number): number {
    if (this.rate <= 0) return 0;
    const now = Date.now();
    this.tokens = Math.min(this.rate, this.tokens + ((now - this.at) / 1000) * this.rate);
    this.at = now;
    this.tokens -= n;
    return this.tokens >= 0 ? 0 : Math.ceil((-this.tokens / this.rate) * 1000);
  }
}

export class SendRates {
  private readonly global: TokenBucket;
  private readonly tenants = new Map<string, TokenBucket>();

  constructor(
    private readonly globalRate: number,
    private readonly tenantRate: number,
  ) {
    this.global = new TokenBucket(globalRate);
  }

  /** Messages a group may hold at most so that it fits in a second of either rate (0: no limit). */
  groupCap(): number {
    const rates = [this.tenantRate, this.globalRate].filter((r) => r > 0);
    return rates.length === 0 ? 0 : Math.max(1, Math.min(...rates));
  }

  /** Milliseconds to wait before sending `n` messages of `tenantId`. */
  take(tenantId: string, n: number): number {
    let bucket = this.tenants.get(tenantId);
    if (!bucket) {
      bucket = new TokenBucket(this.tenantRate);
      this.tenants.set(tenantId, bucket);
      if (this.tenants.size > 10_000) this.tenants.delete(this.tenants.keys().next().value ?? tenantId);
    }
    return Math.max(bucket.take(n), this.global.take(n));
  }
}
