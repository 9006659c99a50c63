/**
 * One run of the send job for a campaign (spec section 2, engagement/emails: sending, pause, resume,
 * cancel). The protocol, its states and what a kill or a freeze at each point leaves are in
 * docs/sending.md; this file is its order of steps:
 *
 * 1. A scheduled campaign whose time has come starts ('sending', `started_at`, the template's version
 *    taken); a cancelled one has its waiting rows skipped; a held tenant's waits.
 * 2. The audience is taken once (campaigns/audience.ts).
 * 3. The run opens a lease (lease.ts) and renews it while it sends; rows are claimed under it
 *    (claim.ts) and built ahead of the connections (feed.ts, render.ts).
 * 4. Each connection prepares its message up to the end of its data (transport.ts), asks the group
 *    commit to hand the row over (commit.ts), ends the data only if it did, and hands the answer to
 *    the next commit.
 * 5. The run ends its lease: rows claimed and not handed over go back to the queue.
 * 6. Nothing left: the campaign is 'sent'; retries pending: the job comes back for the earliest; rows
 *    another run holds: it comes back after a lease.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/index';
import { groupCommitGathering } from '../../db/batch-commit';
import { intOf, queryRows, textOf, type Queryable } from '../../lib/raw-sql';
import type { JobRunner } from '../../jobs/index';
import { takeAudience, partsWaiting } from '../audience';
import { checkUsageNotices } from '../usage-notices';
import { skipRemaining, type Claimant } from './claim';
import { whileClaiming } from './carrier';
import { answerOf, commitGroup, type Answer, type Handing } from './commit';
import { Feed, heldSql, type FeedDeps } from './feed';
import { GroupCommit } from './group-commit';
import { endLease, liveLeases, openLease, renewLease, renewMs } from './lease';
import { enqueueCampaign, enqueueCarrier } from './queue';
import { verpAddress } from '../inbound/addresses';
import { loadSendContext, type CampaignState, type SendContext } from './render';
import { outboxTransport, smtpTransport, type CampaignTransport } from './transport';
import type { Config } from '../../config';

/** How long one run sends before it hands over to a new job. */
export const RUN_MS = 30_000;
/** Rows claimed at once: at least this many, else four per connection (rendered while the others send). */
const CLAIM_BATCH_MIN = 32;
/** A held campaign looks again this often (unpausing the tenant queues it at once: tenants/update.ts). */
export const HELD_RETRY_MS = 60_000;

export const VOLUME_USED_UP =
  "The plan's e-mail volume for this period is used up. Upgrade your plan to send the rest.";
export const TEMPLATE_GONE = 'The template of this e-mail was deleted. Pick another template and send again.';

export interface SenderDeps extends FeedDeps {
  jobs: JobRunner;
  /** This process's name, kept on the rows it claims. */
  worker: string;
  /** The transport of a run (tests may replace it). */
  transport?: () => CampaignTransport;
}

/**
 * Fault injection for the kill tests (send-kill.test.ts; never set otherwise): the process kills itself
 * with SIGKILL right after its Nth row was handed over, before that message's data is ended.
 */
const KILL_AFTER_HANDED = Number(process.env.TEST_KILL_AFTER_HANDED) || 0;
let handedSoFar = 0;

async function loadCampaign(db: Queryable, id: string): Promise<CampaignState | null> {
  const [row] = await queryRows(
    db,
    sql`select id::text, tenant_id::text, kind, status, (extract(epoch from scheduled_at) * 1000)::float8 as scheduled_ms,
               template_id::text, template_version, audience_taken_at::text, audience, subject, preview_text,
               from_name, from_email, reply_to, track_opens, track_clicks, utm
          from campaigns where id = ${id}::uuid`,
  );
  if (!row) return null;
  const json = (v: unknown) => (typeof v === 'string' ? (JSON.parse(v) as unknown) : v);
  return {
    id: textOf(row, 'id') ?? id,
    tenantId: textOf(row, 'tenant_id') ?? '',
    kind: textOf(row, 'kind') === 'transactional' ? 'transactional' : 'campaign',
    status: textOf(row, 'status') ?? '',
    scheduledAt: row.scheduled_ms === null ? null : intOf(row, 'scheduled_ms'),
    templateId: textOf(row, 'template_id'),
    templateVersion: row.template_version === null ? null : intOf(row, 'template_version'),
    audienceTakenAt: textOf(row, 'audience_taken_at'),
    audience: json(row.audience),
    subject: textOf(row, 'subject') ?? '',
    previewText: textOf(row, 'preview_text') ?? '',
    fromName: textOf(row, 'from_name') ?? '',
    fromEmail: textOf(row, 'from_email') ?? '',
    replyTo: textOf(row, 'reply_to') ?? '',
    tracking: {
      trackOpens: row.track_opens === true,
      trackClicks: row.track_clicks === true,
      utm: json(row.utm) as CampaignState['tracking']['utm'],
    },
  };
}

/** A status change (bumps `version`), only from the statuses given; true when it happened. */
async function changeStatus(db: Queryable, id: string, from: string[], to: string, extra: SQL = sql``) {
  const rows = await queryRows(
    db,
    sql`update campaigns set status = ${to}, version = version + 1, updated_at = now() ${extra}
         where id = ${id}::uuid and status in (${sql.join(
           from.map((s) => sql`${s}`),
           sql`, `,
         )}) returning id`,
  );
  return rows.length > 0;
}

/** Starts a due scheduled campaign; takes the template version of a campaign that has none yet. */
async function start(db: Database, campaign: CampaignState): Promise<boolean> {
  if (campaign.status === 'scheduled') {
    if (campaign.scheduledAt === null || campaign.scheduledAt > Date.now()) return false;
    const started = await changeStatus(
      db,
      campaign.id,
      ['scheduled'],
      'sending',
      sql`, started_at = now(), template_version = (select t.version from templates t where t.id = campaigns.template_id)`,
    );
    if (!started) return false;
    campaign.status = 'sending';
  }
  if (campaign.status !== 'sending') return false;
  if (campaign.templateVersion === null) {
    await db.execute(
      sql`update campaigns set template_version = (select t.version from templates t where t.id = campaigns.template_id),
                 started_at = coalesce(started_at, now())
           where id = ${campaign.id}::uuid and template_version is null`,
    );
  }
  return true;
}

const fail = (db: Database, campaignId: string, reason: string) =>
  changeStatus(db, campaignId, ['sending'], 'failed', sql`, failure_reason = ${reason}, finished_at = now()`);

async function tenantHeld(db: Database, tenantId: string): Promise<boolean> {
  const [row] = await queryRows(db, sql`select ${heldSql} as held from tenants t where t.id = ${tenantId}::uuid`);
  return row?.held === true;
}

const heldUntil = () => new Date(Date.now() + HELD_RETRY_MS);

/**
 * One connection's loop: prepare a message, have its row handed over, end the data only then, and
 * hand the answer to the next commit. A message whose row was not handed over (the lease was lost) is
 * dropped: the server discards a message whose data never ended (RFC 5321 section 4.1.1.4).
 */
async function connectionLoop(
  feed: Feed,
  commits: GroupCommit<Handing, boolean, Answer>,
  transport: CampaignTransport,
  envelopeFrom: (rowId: number) => string,
) {
  for (;;) {
    const m = await feed.next();
    if (!m) return;
    const result = await transport.prepare({ from: envelopeFrom(m.row.id), to: m.to, raw: m.raw });
    if ('refused' in result) {
      commits.ride(answerOf(m.row.id, result.refused, false));
      continue;
    }
    let handed: boolean;
    try {
      handed = await commits.request({ id: m.row.id, messageId: m.messageId });
    } catch (error) {
      result.prepared.abort();
      throw error;
    }
    if (!handed) {
      result.prepared.abort();
      continue;
    }
    if (++handedSoFar === KILL_AFTER_HANDED) process.kill(process.pid, 'SIGKILL');
    commits.ride(answerOf(m.row.id, await result.prepared.finish(), true));
  }
}

/** The connections send until the feed runs out or stops; null when enough runs of the campaign send already. */
async function send(deps: SenderDeps, ctx: SendContext, signal: AbortSignal): Promise<Feed | null> {
  const { db, config, log } = deps;
  const campaign = ctx.campaign;
  const timing = { leaseSeconds: config.campaigns.leaseSeconds };
  const epoch = await openLease(db, campaign.id, deps.worker, timing);
  const who: Claimant = { epoch, worker: deps.worker };
  // SEND_RUNS_PER_CAMPAIGN: a run that finds that many older runs leaves at once (the oldest stay);
  // while fewer run, it asks for one more.
  const runs = await liveLeases(db, campaign.id, epoch);
  if (runs.older >= config.campaigns.runsPerCampaign) {
    await endLease(db, epoch);
    return null;
  }
  if (runs.all < config.campaigns.runsPerCampaign) await enqueueCampaign(deps.jobs, campaign.id);
  const transport = deps.transport?.() ?? makeTransport(config);
  const scope = {
    ...(campaign.kind === 'transactional' ? { carrier: { id: campaign.id, templateId: campaign.templateId } } : {}),
    campaignId: campaign.id,
    tenantId: campaign.tenantId,
    epoch,
    maxAttempts: config.campaigns.maxAttempts,
    retryDelaySeconds: config.campaigns.retryDelaySeconds,
  };
  const commits = new GroupCommit<Handing, boolean, Answer>(
    async (handings, answers) => {
      const done = await commitGroup(db, scope, handings, answers, new Date());
      feed.settled += handings.length + answers.filter((a) => !a.afterData).length;
      if (done.dropped > 0) log.warn({ campaignId: campaign.id, epoch, dropped: done.dropped }, LATE_RESULTS);
      // A row not handed over: the lease was taken over (or lapsed); the run stops and a new one starts.
      if (done.handed.size < handings.length) feed.stopped ??= 'lost';
      return handings.map((h) => done.handed.has(h.id));
    },
    undefined,
    groupCommitGathering(db, transport.slots),
  );
  const batch = Math.max(CLAIM_BATCH_MIN, transport.slots * 4);
  const feed = new Feed(deps, who, ctx, commits, batch, signal, Date.now() + RUN_MS);
  const renewal = setInterval(() => {
    renewLease(db, epoch, timing)
      .then((held) => void (held || (feed.stopped ??= 'lost')))
      .catch(feed.fail);
  }, renewMs(timing));
  let failure: unknown = null;
  try {
    const loops = await Promise.allSettled(
      Array.from({ length: transport.slots }, () =>
        connectionLoop(feed, commits, transport, (id) => verpAddress(config.campaigns, id)).catch((error: unknown) => {
          feed.stopped ??= 'aborted'; // the other connections stop after the message in hand
          throw error;
        }),
      ),
    );
    failure = loops.find((l): l is PromiseRejectedResult => l.status === 'rejected')?.reason ?? null;
  } finally {
    clearInterval(renewal);
    feed.stopped ??= 'aborted';
    await feed.release().catch((error: unknown) => (failure ??= error));
    await commits.flush();
    failure ??= commits.failure ?? feed.error;
    // After a failed commit the lease is left to expire: a takeover settles its rows the same way.
    if (!commits.failure) await endLease(db, epoch).catch((error: unknown) => (failure ??= error));
    await transport.close();
  }
  if (failure) throw failure;
  return feed;
}

const LATE_RESULTS = 'answers for rows this run no longer holds (its lease was taken over): not recorded';

/** One run of the send job for a campaign. */
export async function runCampaign(deps: SenderDeps, campaignId: string, signal: AbortSignal): Promise<void> {
  const { db, config } = deps;
  let campaign = await loadCampaign(db, campaignId);
  if (!campaign) return;
  if (campaign.status === 'cancelled') return skipRemaining(db, campaign);
  if (await tenantHeld(db, campaign.tenantId)) return enqueueCampaign(deps.jobs, campaignId, heldUntil());
  if (!(await start(db, campaign))) return;
  campaign = await loadCampaign(db, campaignId);
  if (!campaign || campaign.status !== 'sending') return;
  if (!campaign.templateId || campaign.templateVersion === null)
    return void (await fail(db, campaignId, TEMPLATE_GONE));

  if (campaign.audienceTakenAt === null) {
    const n = await takeAudience(
      db,
      campaign.id,
      campaign.tenantId,
      campaign.audience as Parameters<typeof takeAudience>[3],
      config.campaigns.walletMailDomain,
      { signal },
    );
    if (n === null) return; // stopped: the job is sent again; the walk resumes after the parts it took
    await db.execute(
      sql`update campaigns set recipients = ${n}, audience_taken_at = now() where id = ${campaign.id}::uuid`,
    );
  }
  let ctx: SendContext;
  try {
    ctx = await loadSendContext(db, config, campaign);
  } catch (error) {
    deps.log.error({ err: error, campaignId }, 'campaign template could not be loaded');
    return void (await fail(db, campaignId, TEMPLATE_GONE));
  }

  const feed =
    campaign.kind === 'transactional'
      ? await whileClaiming(campaignId, () => send(deps, ctx, signal))
      : await send(deps, ctx, signal);
  if (!feed) return;
  if (feed.claimed > 0) {
    await checkUsageNotices(db, deps.mailer, campaign.tenantId, new Date()).catch((error: unknown) =>
      deps.log.error({ err: error }, 'usage notices failed'),
    );
  }
  switch (feed.exhausted ? null : feed.stopped) {
    case 'cancelled':
      return skipRemaining(db, campaign);
    case 'not-sending':
      return;
    case 'volume':
      await changeStatus(db, campaignId, ['sending'], 'paused', sql`, failure_reason = ${VOLUME_USED_UP}`);
      return;
    case 'held':
      return enqueueCampaign(deps.jobs, campaignId, heldUntil());
    case 'time':
    case 'aborted':
    case 'lost':
      return enqueueCampaign(deps.jobs, campaignId);
    default:
      return campaign.kind === 'transactional' ? settleCarrier(deps, campaignId) : settle(deps, campaignId);
  }
}

/**
 * A carrier's run found nothing to claim: it stays 'sending' (carrier.ts). Rows queued since its last
 * claim get a run now; rows another run holds, after a lease; deferred rows, when their retry is due.
 */
async function settleCarrier(deps: SenderDeps, campaignId: string): Promise<void> {
  const [row] = await queryRows(
    deps.db,
    sql`select count(*) filter (where status = 'queued')::int as queued,
               count(*) filter (where status in ('sending', 'handing'))::int as held,
               (extract(epoch from min(next_attempt_at) filter (where status = 'deferred')) * 1000)::float8 as next_ms
          from campaign_recipients
         where campaign_id = ${campaignId}::uuid and status in ('queued', 'sending', 'handing', 'deferred')`,
  );
  if (!row) return;
  if (intOf(row, 'queued') > 0) return enqueueCarrier(deps.jobs, campaignId);
  if (intOf(row, 'held') > 0)
    return enqueueCampaign(deps.jobs, campaignId, new Date(Date.now() + deps.config.campaigns.leaseSeconds * 1000));
  if (row.next_ms !== null && row.next_ms !== undefined)
    return enqueueCampaign(deps.jobs, campaignId, new Date(Math.max(intOf(row, 'next_ms'), Date.now())));
}

/** Nothing could be claimed: the campaign is sent, or waits for retries, or another run holds rows. */
async function settle(deps: SenderDeps, campaignId: string): Promise<void> {
  const [row] = await queryRows(
    deps.db,
    sql`select count(*) filter (where status in ('queued', 'sending', 'handing'))::int as busy,
               (extract(epoch from min(next_attempt_at) filter (where status = 'deferred')) * 1000)::float8 as next_ms
          from campaign_recipients
         where campaign_id = ${campaignId}::uuid and status in ('queued', 'sending', 'handing', 'deferred')`,
  );
  // Parts of the audience not yet taken into rows count as busy (another process may be taking one).
  const busy = (row ? intOf(row, 'busy') : 0) + (await partsWaiting(deps.db, campaignId));
  const next = row && row.next_ms !== null && row.next_ms !== undefined ? intOf(row, 'next_ms') : null;
  if (busy > 0) {
    // Rows another run holds: they are settled by it, or by a takeover, within a lease.
    const later = new Date(Date.now() + deps.config.campaigns.leaseSeconds * 1000);
    await enqueueCampaign(deps.jobs, campaignId, later);
    return;
  }
  if (next !== null) {
    await enqueueCampaign(deps.jobs, campaignId, new Date(Math.max(next, Date.now())));
    return;
  }
  await changeStatus(deps.db, campaignId, ['sending'], 'sent', sql`, finished_at = now()`);
}

export function makeTransport(config: Config): CampaignTransport {
  return config.smtpUrl ? smtpTransport(config.smtpUrl, config.campaigns.poolSize) : outboxTransport(config.outboxDir);
}
