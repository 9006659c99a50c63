/**
 * Campaigns that carry another area's messages (kind 'transactional': transactional/carriers.ts). The
 * send job delivers their rows with the same protocol (docs/sending.md); what differs is handed in
 * here by the area that owns them, so this folder names no table of theirs:
 * - each row's own merge data (read with the claimed rows);
 * - a statement the hand-over commit adds for the rows it handed over (the area's own counters).
 * Such a campaign is always 'sending': its run settles and ends, and the next message queues a run.
 */
import type { SQL } from 'drizzle-orm';
import type { Queryable } from '../../lib/raw-sql';

/** What one commit changed, as SQL expressions (counts over its statement's rows). */
export interface CommitCounts {
  handed: SQL;
  bounced: SQL;
  failed: SQL;
}

export interface CarrierHooks {
  /** Each row's merge data, by row id (rows without data are left out). */
  loadData(db: Queryable, rowIds: number[]): Promise<Map<number, Record<string, unknown>>>;
  /** A statement run inside the commit with what it changed (SQL counts) at `at`. */
  committedSql(campaign: { id: string; templateId: string | null }, counts: CommitCounts, at: Date): SQL;
}

let hooks: CarrierHooks | null = null;

/** Set once by the area that owns the carriers (its routes' registration). */
export function registerCarrierHooks(h: CarrierHooks): void {
  hooks = h;
}

export function carrierHooks(): CarrierHooks {
  if (!hooks) throw new Error('a transactional carrier is sending but no carrier hooks are registered');
  return hooks;
}

/** Carriers with a run claiming in this process, and how many such runs. */
const claiming = new Map<string, number>();

/**
 * Runs `claim` (a carrier run's sending part) marked as claiming: until it ends, a message committed
 * to this carrier will be claimed by it (the run looks for new rows every 25 ms: feed.ts). The mark is
 * taken off before the run settles, and the settle reads what was queued since its last claim, so a
 * message committed while the mark was on is either claimed or found by the settle (run.ts).
 */
export async function whileClaiming<T>(carrierId: string, claim: () => Promise<T>): Promise<T> {
  claiming.set(carrierId, (claiming.get(carrierId) ?? 0) + 1);
  try {
    return await claim();
  } finally {
    const n = (claiming.get(carrierId) ?? 1) - 1;
    if (n > 0) claiming.set(carrierId, n);
    else claiming.delete(carrierId);
  }
}

/** Whether a run of this carrier claims in this process now: a message committed now needs no new run. */
export function carrierClaiming(carrierId: string): boolean {
  return claiming.has(carrierId);
}
