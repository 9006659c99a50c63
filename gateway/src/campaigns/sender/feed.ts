/**
 * Claims and renders ahead of the connections: a batch of rows is claimed (claim.ts: deferred rows due,
 * rows given back to the queue, then straight from the audience's parts) and built in the off-loop pool
 * (render.ts `buildMessages`) while the connections send the previous one. Between batches: the
 * campaign's status at most every second (pause and cancel take effect within it), the plan's volume,
 * the send rates, the run's time and the runner's abort.
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Database } from '../../db/index';
import { queryRows, textOf } from '../../lib/raw-sql';
import type { Mailer } from '../../mail/mailer';
import { emailAllowance } from '../usage';
import { checkUsageNotices } from '../usage-notices';
import { claim, claimFromParts, type Claimant, type Claimed } from './claim';
import type { Answer } from './commit';
import type { GroupCommit } from './group-commit';
import type { SendRates } from './rate';
import { buildMessages, type Message, type SendContext } from './render';
import { carrierHooks } from './carrier';

/** A carrier's run waits this long for new messages once none is left, looking every CARRIER_LOOK_MS. */
export const CARRIER_IDLE_MS = 2_000;
export const CARRIER_LOOK_MS = 25;

/** The campaign's status is read again at most this often (pause and cancel take effect within 2 s). */
export const STATUS_EVERY_MS = 1_000;

/**
 * A tenant whose sending a platform admin paused (tenant settings' `sending_paused`, spec section 7), or
 * a deleted tenant: its campaigns send nothing and wait, nothing lost.
 */
export const heldSql = sql`(t.sending_paused or t.deleted_at is not null)`;

/** Why a run stops sending before its recipients run out. */
export type StopReason = 'cancelled' | 'not-sending' | 'volume' | 'time' | 'aborted' | 'held' | 'lost';
/** Stops after which the rows already claimed are still sent (they fit the volume; the run's time is soft). */
const DRAINED = new Set<StopReason>(['volume', 'time']);

/** A recipient's message, built and waiting for a connection. */
export interface Ready extends Message {
  row: Claimed;
}

export interface FeedDeps {
  db: Database;
  config: Config;
  log: FastifyBaseLogger;
  mailer: Mailer;
  rates: SendRates;
}

export class Feed {
  private buffer: Ready[] = [];
  private filling: Promise<void> | null = null;
  private statusReadAt = Date.now();
  private allowance = { left: 0, readAt: 0 };
  private noticesAt = 0;
  /** When deferred rows were last looked for. */
  private retriesReadAt = 0;
  private statusRead: Promise<void> | null = null;
  /**
   * The queued rows ran out: claims come from the audience's parts from then on (rows go back to the
   * queue only when a lease ends; the next run claims them first).
   */
  private fromParts = false;
  /** No part was left to take (parts are only written before sending starts, so none comes later). */
  private partsDone = false;
  /** When this run last claimed rows (its start before any). */
  private lastClaimAt = Date.now();
  /** Rows claimed so far by this run. */
  claimed = 0;
  /** Of those, rows whose claim ended: handed over (or found taken away), or answered before any data. */
  settled = 0;
  stopped: StopReason | null = null;
  /** Nothing was left to claim. */
  exhausted = false;
  /** What stopped the run with an error (a failed statement). */
  error: unknown = null;

  constructor(
    private readonly deps: FeedDeps,
    private readonly who: Claimant,
    private readonly ctx: SendContext,
    private readonly commits: Pick<GroupCommit<unknown, unknown, Answer>, 'ride' | 'between'>,
    private readonly batch: number,
    private readonly signal: AbortSignal,
    private readonly endAt: number,
  ) {}

  /** The next message to send, or null when the run stops or nothing is left. */
  async next(): Promise<Ready | null> {
    for (;;) {
      if (Date.now() - this.statusReadAt >= STATUS_EVERY_MS) await this.readStatus();
      if (this.stopped && !DRAINED.has(this.stopped)) return null;
      const ready = this.buffer.shift();
      if (ready) {
        // The next batch is claimed and built while a whole one is still in hand: the claim waits its
        // turn behind the commits, and the connections must not wait for it.
        if (!this.stopped && this.buffer.length < this.batch) void this.fill();
        return ready;
      }
      if (this.exhausted || this.stopped) return null;
      await this.fill();
    }
  }

  /** A failed statement stops the run; the error is thrown once the connections are done. */
  readonly fail = (error: unknown) => {
    this.stopped ??= 'aborted';
    this.error ??= error;
  };

  /** One fill at a time; callers share it. Errors stop the run. */
  fill(): Promise<void> {
    this.filling ??= this.fillOnce()
      .catch(this.fail)
      .finally(() => (this.filling = null));
    return this.filling;
  }

  /** The campaign's status, read again (one read at a time; callers share it): paused or cancelled stop the run. */
  private readStatus(): Promise<void> {
    this.statusRead ??= (async () => {
      const [row] = await queryRows(
        this.deps.db,
        sql`select c.status, ${heldSql} as held from campaigns c join tenants t on t.id = c.tenant_id
             where c.id = ${this.ctx.campaign.id}::uuid`,
      );
      this.statusReadAt = Date.now();
      const status = row ? textOf(row, 'status') : null;
      if (status === 'cancelled') this.stopped ??= 'cancelled';
      else if (status !== 'sending') this.stopped ??= 'not-sending';
      else if (row?.held === true) this.stopped ??= 'held';
    })()
      .catch(this.fail)
      .finally(() => (this.statusRead = null));
    return this.statusRead;
  }

  /** Waits for a fill in progress and drops what was built: those rows go back to the queue with the lease. */
  async release(): Promise<void> {
    while (this.filling) await this.filling;
    this.buffer.splice(0);
  }

  private async fillOnce(): Promise<void> {
    const { deps, ctx } = this;
    const { db } = deps;
    const campaign = ctx.campaign;
    if (this.signal.aborted) return void (this.stopped = 'aborted');
    if (Date.now() > this.endAt) return void (this.stopped = 'time');
    if (Date.now() - this.statusReadAt >= STATUS_EVERY_MS) await this.readStatus();
    if (this.stopped) return;
    // Plan usage notices at most every second, once messages went out.
    if (this.claimed > 0 && Date.now() - this.noticesAt >= STATUS_EVERY_MS) {
      this.noticesAt = Date.now();
      await checkUsageNotices(db, deps.mailer, campaign.tenantId, new Date()).catch((error: unknown) =>
        deps.log.error({ err: error }, 'usage notices failed'),
      );
    }
    // The plan's volume, read again at most every second (the rows claimed since are counted here).
    // Read between two commits: a commit that lands in the database after the read began but is
    // settled here before its answer would be counted neither as used nor as in hand (more sent
    // than the plan allows), or the other way round twice (paused early).
    // A carrier's messages were counted against the volume when the API accepted them (transactional/accept.ts).
    if (campaign.kind === 'transactional') this.allowance = { left: this.batch, readAt: Date.now() };
    else if (Date.now() - this.allowance.readAt >= STATUS_EVERY_MS || this.allowance.left <= 0) {
      const left = await this.commits.between(async () => {
        const a = await emailAllowance(db, campaign.tenantId, new Date());
        return a.limit - a.used - (this.claimed - this.settled);
      });
      this.allowance = { left, readAt: Date.now() };
      if (this.allowance.left <= 0) return void (this.stopped = 'volume');
    }
    let size = Math.min(this.batch, this.allowance.left);
    const cap = deps.rates.groupCap();
    if (cap > 0) size = Math.min(size, cap);
    const wait = deps.rates.take(campaign.tenantId, size);
    if (wait > 0) await sleep(Math.min(wait, 1_000), this.signal);

    // Deferred rows whose retry is due first, looked for at most every second while queued rows fill
    // the batch (a claim that finds none still costs the database a statement).
    const retriesDue = Date.now() - this.retriesReadAt >= STATUS_EVERY_MS;
    const retries = () => claim(db, this.who, campaign.id, size - rows.length, 'deferred');
    let rows: Claimed[] = [];
    if (retriesDue) {
      this.retriesReadAt = Date.now();
      rows = await retries();
    }
    // Queued rows, then the audience's parts once they ran out.
    while (rows.length < size && !this.partsDone) {
      if (!this.fromParts) {
        rows = rows.concat(await claim(db, this.who, campaign.id, size - rows.length, 'queued'));
        if (rows.length < size) {
          // A carrier has no audience parts: its rows are all written queued.
          if (campaign.kind === 'transactional') break;
          this.fromParts = true;
        }
        continue;
      }
      const taken = await claimFromParts(db, this.who, campaign, size - rows.length);
      rows = rows.concat(taken.rows);
      if (!taken.part) this.partsDone = true;
    }
    if (rows.length < size && !retriesDue) rows = rows.concat(await retries());
    if (rows.length === 0) {
      // A carrier (carrier.ts) keeps its run a little while nothing comes, looking again every
      // CARRIER_LOOK_MS, so that the next messages are sent at once rather than after a new run starts.
      if (campaign.kind === 'transactional' && Date.now() - this.lastClaimAt < CARRIER_IDLE_MS) {
        await sleep(CARRIER_LOOK_MS, this.signal);
        return;
      }
      return void (this.exhausted = true);
    }
    this.lastClaimAt = Date.now();
    this.claimed += rows.length;
    this.allowance.left -= rows.length;
    if (campaign.kind === 'transactional') {
      const data = await carrierHooks().loadData(
        db,
        rows.map((r) => r.id),
      );
      for (const row of rows) row.data = data.get(row.id) ?? {};
    }
    const built = await buildMessages(ctx, rows);
    for (const [i, row] of rows.entries()) {
      const message = built[i];
      if (!message) throw new Error('the off-loop pool answered fewer messages than rows');
      if ('failed' in message)
        this.commits.ride({ id: row.id, kind: 'failed', detail: message.failed, afterData: false });
      else if ('deferred' in message)
        this.commits.ride({ id: row.id, kind: 'deferred', detail: message.deferred, afterData: false });
      else this.buffer.push({ row, ...message });
    }
  }
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
