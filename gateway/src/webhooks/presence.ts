/**
 * Whether a tenant has enabled webhook endpoints, cached per tenant so that the delivery events' hook
 * costs a tenant without endpoints one map read per commit (docs/webhooks.md, "Cost when unused"). A
 * change of the tenant's endpoints in this process forgets its entry at once; an entry also expires
 * after `ttlMs`, so a change made by another process (another gateway, the workers process) is seen
 * within that time.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/index';
import { queryRows } from '../lib/raw-sql';

/** Tenants kept at most; past it the cache starts again empty (bounded memory). */
const MAX_TENANTS = 10_000;

export class EndpointPresence {
  private readonly known = new Map<string, { has: boolean; until: number }>();
  private readonly loading = new Map<string, Promise<boolean>>();
  /** Bumped by `forget`: a read that started before a change does not store its (stale) answer. */
  private changes = 0;

  constructor(
    private readonly db: Database,
    private readonly ttlMs = 30_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Synchronous: false only when the tenant is known to have no enabled endpoint. */
  wants(tenantId: string): boolean {
    const entry = this.known.get(tenantId);
    return !entry || entry.until < this.now() || entry.has;
  }

  /** Whether the tenant has an enabled endpoint (read once per `ttlMs`; concurrent asks share one read). */
  has(tenantId: string): Promise<boolean> {
    const entry = this.known.get(tenantId);
    if (entry && entry.until >= this.now()) return Promise.resolve(entry.has);
    let pending = this.loading.get(tenantId);
    if (!pending) {
      const load = this.load(tenantId).finally(() => {
        if (this.loading.get(tenantId) === load) this.loading.delete(tenantId);
      });
      pending = load;
      this.loading.set(tenantId, load);
    }
    return pending;
  }

  /**
   * Starts reading an unknown (or expired) tenant's answer in the background, so that the next `wants`
   * answers from memory (a process without the outbox's drain learns it too). Never waits or throws.
   */
  learn(tenantId: string): void {
    const entry = this.known.get(tenantId);
    if (entry && entry.until >= this.now()) return;
    this.has(tenantId).catch(() => undefined);
  }

  /** The tenant's endpoints changed: read again next time. */
  forget(tenantId: string): void {
    this.changes++;
    this.known.delete(tenantId);
    this.loading.delete(tenantId);
  }

  private async load(tenantId: string): Promise<boolean> {
    const changes = this.changes;
    const rows = await queryRows(
      this.db,
      sql`select 1 from webhook_endpoints where tenant_id = ${tenantId}::uuid and enabled limit 1`,
    );
    if (changes !== this.changes) return rows.length > 0;
    if (this.known.size >= MAX_TENANTS) this.known.clear();
    this.known.set(tenantId, { has: rows.length > 0, until: this.now() + this.ttlMs });
    return rows.length > 0;
  }
}
