/**
 * The send job (spec section 2, engagement/emails: sending, pause, resume, cancel; the delivery log's
 * statuses). One run of CAMPAIGN_SEND_QUEUE for a campaign:
 *
 * 1. A scheduled campaign whose time has come starts: 'sending', `started_at`, the template's current
 *    version taken. A job for a campaign that is no longer due (rescheduled, unscheduled, paused) does
 *    nothing; for a cancelled one it turns the rows still waiting into 'skipped'.
 * 2. The audience is taken once (campaigns/audience.ts, `audience_taken_at`), as compact parts; a part
 *    becomes recipient rows when the claims below run short of queued rows (`expandPart`). On
 *    embedded PGlite the claims take them from the parts already claimed (`claimFromPart`).
 * 3. Recipients are claimed in batches (`FOR UPDATE SKIP LOCKED`: two processes never claim one row)
 *    and rendered ahead of the connections (mime.ts builds each message). Each SMTP connection of
 *    the pool then sends EXACTLY ONCE: it prepares its message up to the end of its data
 *    (sender/transport.ts), and ends the data only once nothing can send that row again:
 *    - on a PostgreSQL server, after the row is committed 'sent' (several processes may send, and a
 *      claim can be taken away): the commits of all connections are grouped (group-commit.ts), one
 *      transaction marks every waiting row 'sent' with the plan usage, the campaign's counter and
 *      the chart's minute counts, and records the answers that came since. A process killed
 *      before a row's commit leaves it 'sending' with a message the server discards; it is queued
 *      again once its claim is older than the job heartbeat. A row whose claim was taken away
 *      meanwhile is not committed by this process (the commit checks the claim) and its message is
 *      dropped.
 *    - on embedded PGlite (one process holds the database, nothing takes a claim away), after a line
 *      in the run's ends log (ends-log.ts); the row is committed later with its answer, 'delivered'
 *      at once when the answer was, in a group commit the connection does not wait for (it goes on
 *      while fewer than PGLITE_COMMITS_AHEAD of its rows wait for theirs). A process killed before
 *      that commit leaves rows 'sending': at start, those in its ends log become 'sent', the others
 *      are queued again.
 *    Rows claimed but not sent when a run stops go back to the queue.
 * 4. Answers: 250 delivered; 4xx deferred, retried after `retryDelaySeconds` doubling per attempt, at
 *    most `maxAttempts` attempts, then failed; 5xx bounced, and the contact's status becomes 'bounced'
 *    (contact-outcomes.ts; later sends leave them out). The same at RCPT time, before any data
 *    (nothing committed 'sent'). A deferred message is taken off the campaign's `sent` figure (it is
 *    sent again later); the plan usage keeps every attempt.
 * 5. The campaign's status is read at most every second: paused or cancelled (or the tenant's sending
 *    paused by a platform admin, see `tenantHeld`) stop the run within that
 *    second plus the messages in hand. The plan's volume is checked before each batch: used up → the
 *    rows claimed are still sent (they fit), then 'paused' with a reason (resuming after an upgrade
 *    carries on).
 * 6. When nothing is left queued, sending or due → 'sent'; rows deferred for later → the job is sent
 *    again for the earliest retry. A run lasts at most RUN_MS, then sends itself again (other jobs
 *    get their turn), and stops after the messages in hand when the runner aborts it.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { CampaignEventType } from '../../contracts';
import type { Database } from '../../db/index';
import { isPglite } from '../../db/engine';
import { yieldToRequests as nextTurn } from '../../db/storage';
import { toChecksumAddress } from '../../lib/eip55';
import { intOf, queryRows, textOf, type Queryable, type Row } from '../../lib/raw-sql';
import type { JobRunner } from '../../jobs/index';
import type { Mailer } from '../../mail/mailer';
import {
  bindSend,
  contactScope,
  loadMergeContext,
  loadTemplate,
  prepareTemplate,
  renderMessage,
  type MergeContext,
  type PreparedTemplate,
} from '../../templates/index';
import { campaignHtml } from '../campaign-preview';
import { AUDIENCE_PART, expandPart, expansionSql, partsWaiting, takeAudience } from '../audience';
import { markBounced } from '../contact-outcomes';
import { countEvents, countEventsSql } from '../event-minutes';
import { campaignHeaders, decorateHtml, decorateText, type TrackingSettings } from '../tracking/decorate';
import { trackingUrls } from '../tracking/links';
import { emailAllowance, recordSentSql } from '../usage';
import { checkUsageNotices } from '../usage-notices';
import { dkimKeyFor, dkimSignMessage, type DkimKey } from '../../domains/dkim';
import { effectiveSender } from '../../domains/senders';
import { enqueueCampaign } from './queue';
import { transactionCommittedOnWire } from './commit-on-wire';
import { EndsLog, leftByRuns } from './ends-log';
import { GroupCommit } from './group-commit';
import { buildMime, sharedHeaders } from './mime';
import { SendRates } from './rate';
import { outboxTransport, smtpTransport, type CampaignTransport, type SmtpAnswer } from './transport';

/** How long one run sends before it hands over to a new job. */
export const RUN_MS = 30_000;
/** A part of the audience is taken into rows ahead while fewer than this many batches are queued. */
const EXPAND_AHEAD_BATCHES = 8;
/** The campaign's status is read again at most this often (pause and cancel take effect within 2 s). */
const STATUS_EVERY_MS = 1_000;
/** Rows claimed at once: at least this many, else four per connection (rendered while the others send). */
const CLAIM_BATCH_MIN = 32;
/** Embedded PGlite: the longest a sent message waits for others to share its commit (ms). */
const PGLITE_GATHER_MS = 5;
/**
 * Embedded PGlite: the most rows one commit takes (the others wait for the next). A commit is one
 * statement on PGlite's one connection, and the console's reads wait for it: 32 rows hold it about
 * 6 ms. Since PGlite's thread chooses its next statement itself, 64 sent about a fifth more messages a
 * second than 32 with the contacts grid's p95 still under 100 ms; 128 sent no more, with p95 at the
 * goal's edge (bench/README.md, "eighth session").
 */
const PGLITE_COMMIT_MAX = 64;
/**
 * Embedded PGlite: a connection's ended messages whose rows may wait for their commit while it sends
 * the next (it waits for the oldest beyond that). Bounds what a kill leaves to recover (ends-log.ts)
 * and how far sending runs ahead of the database.
 */
export const PGLITE_COMMITS_AHEAD = 4;
/**
 * Embedded PGlite: the most recipients one claim takes from the audience's parts (`claimFromPart`):
 * the console's reads wait for the statement there, and a whole part (1,000) held PGlite's one
 * connection about 50 ms (bench/README.md).
 */
const PGLITE_CLAIM_MAX = 64;
/**
 * Messages built per turn of the event loop: one, so the connections' answers wait at most one
 * message's build (8 per turn cost 25 % of the throughput in event-loop lag).
 */
const RENDER_SLICE = 1;
/** Rows turned 'skipped' per statement when a campaign is cancelled. */
const SKIP_SLICE = 5_000;

export const VOLUME_USED_UP =
  "The plan's e-mail volume for this period is used up. Upgrade your plan to send the rest.";
export const NO_ANSWER = 'The mail server did not answer after the message: it may not have arrived.';
export const TEMPLATE_GONE = 'The template of this e-mail was deleted. Pick another template and send again.';

export interface SenderDeps {
  db: Database;
  config: Config;
  log: FastifyBaseLogger;
  jobs: JobRunner;
  mailer: Mailer;
  rates: SendRates;
  /** This process's name in `claimed_by`. */
  worker: string;
  /** Embedded PGlite on disk: where runs note the messages they ended before their commit (ends-log.ts). */
  endsDir: string | null;
  /** The transport of a run (tests may replace it). */
  transport?: () => CampaignTransport;
}

interface CampaignState {
  id: string;
  tenantId: string;
  status: string;
  scheduledAt: number | null;
  templateId: string | null;
  templateVersion: number | null;
  audienceTakenAt: string | null;
  audience: unknown;
  subject: string;
  previewText: string;
  fromName: string;
  fromEmail: string;
  replyTo: string;
  tracking: TrackingSettings;
}

async function loadCampaign(db: Queryable, id: string): Promise<CampaignState | null> {
  const [row] = await queryRows(
    db,
    sql`select id::text, tenant_id::text, status, (extract(epoch from scheduled_at) * 1000)::float8 as scheduled_ms,
               template_id::text, template_version, audience_taken_at::text, audience, subject, preview_text,
               from_name, from_email, reply_to, track_opens, track_clicks, utm
          from campaigns where id = ${id}::uuid`,
  );
  if (!row) return null;
  const json = (v: unknown) => (typeof v === 'string' ? (JSON.parse(v) as unknown) : v);
  return {
    id: textOf(row, 'id') ?? id,
    tenantId: textOf(row, 'tenant_id') ?? '',
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
      utm: json(row.utm) as TrackingSettings['utm'],
    },
  };
}

/** A status change (bumps `version`), only from the statuses given; true when it happened. */
async function changeStatus(
  db: Queryable,
  id: string,
  from: string[],
  to: string,
  extra: SQL = sql``,
): Promise<boolean> {
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

/**
 * Cancelled: the rows still waiting become 'skipped', a slice per statement, and so do the parts of
 * the audience not yet taken into rows (the delivery log lists every recipient of the snapshot).
 */
export async function skipRemaining(db: Database, campaign: { id: string; tenantId: string }): Promise<void> {
  const campaignId = campaign.id;
  while (await expandPart(db, campaignId, campaign.tenantId, 'skipped')) await nextTurn();
  for (;;) {
    const rows = await queryRows(
      db,
      sql`update campaign_recipients set status = 'skipped', next_attempt_at = null
           where id in (select id from campaign_recipients
                         where campaign_id = ${campaignId}::uuid and status in ('queued', 'deferred')
                         limit ${SKIP_SLICE} for update skip locked)
          returning 1`,
    );
    if (rows.length < SKIP_SLICE) return;
    await nextTurn();
  }
}

/** Rows left 'sending' by a process that died: queued again (older than `olderThanSeconds`; null: all). */
export async function releaseClaims(db: Queryable, campaignId: string | null, olderThanSeconds: number | null) {
  await db.execute(
    sql`update campaign_recipients set status = 'queued', claimed_by = null, claimed_at = null
         where status = 'sending'
           ${campaignId === null ? sql`` : sql`and campaign_id = ${campaignId}::uuid`}
           ${olderThanSeconds === null ? sql`` : sql`and claimed_at < now() - make_interval(secs => ${olderThanSeconds})`}`,
  );
}

interface Claimed {
  id: number;
  contactId: string | null;
  address: string;
  channel: string;
  attempts: number;
  contact: {
    email: string | null;
    wallet: string | null;
    first_name: string;
    last_name: string;
    attributes: Record<string, unknown>;
    status: string;
  } | null;
}

/** The rows of a `claimed` CTE (id, contact_id, address, channel, attempts) with their contacts, in id order. */
const claimedWithContacts = sql`select claimed.*, c.email, c.wallet, c.first_name, c.last_name, c.attributes,
                                       c.status as contact_status
                                  from claimed left join contacts c on c.id = claimed.contact_id
                                 order by claimed.id`;

function claimedOf(r: Row): Claimed {
  return {
    id: intOf(r, 'id'),
    contactId: textOf(r, 'contact_id'),
    address: textOf(r, 'address') ?? '',
    channel: textOf(r, 'channel') ?? 'email',
    attempts: intOf(r, 'attempts'),
    contact:
      textOf(r, 'contact_status') === null
        ? null
        : {
            email: textOf(r, 'email'),
            wallet: textOf(r, 'wallet'),
            first_name: textOf(r, 'first_name') ?? '',
            last_name: textOf(r, 'last_name') ?? '',
            attributes: (typeof r.attributes === 'string' ? JSON.parse(r.attributes) : (r.attributes ?? {})) as Record<
              string,
              unknown
            >,
            status: textOf(r, 'contact_status') ?? '',
          },
  };
}

async function claim(
  deps: SenderDeps,
  campaignId: string,
  n: number,
  which: 'queued' | 'deferred',
): Promise<Claimed[]> {
  const condition = which === 'queued' ? sql`status = 'queued'` : sql`status = 'deferred' and next_attempt_at <= now()`;
  const rows = await queryRows(
    deps.db,
    sql`with claimed as (
          update campaign_recipients r
             set status = 'sending', claimed_by = ${deps.worker}, claimed_at = now(), attempts = r.attempts + 1
           where r.id in (select id from campaign_recipients
                           where campaign_id = ${campaignId}::uuid and ${condition}
                           order by id limit ${n} for update skip locked)
          returning r.id, r.contact_id, r.address, r.channel, r.attempts)
        ${claimedWithContacts}`,
  );
  return rows.map(claimedOf);
}

/**
 * Embedded PGlite: the next `n` recipients of the audience's next waiting part, inserted already
 * claimed by this process (audience.ts `expansionSql`), with their contacts: one statement and one
 * row version per recipient instead of an insert and a claim. `part` is false when no part was waiting.
 */
export async function claimFromPart(
  deps: { db: Queryable; worker: string },
  campaign: { id: string; tenantId: string },
  n: number,
): Promise<{ part: boolean; rows: Claimed[] }> {
  const rows = await queryRows(
    deps.db,
    sql`${expansionSql(campaign.id, campaign.tenantId, { claimedBy: deps.worker }, n)},
        claimed as (select * from ins),
        taken as (${claimedWithContacts})
        select taken.*, (select count(*) from marked)::int as parts
          from (select 1) one left join taken on true
         order by taken.id`,
  );
  return {
    part: rows.length > 0 && intOf(rows[0]!, 'parts') > 0,
    rows: rows.filter((r) => r.id !== null && r.id !== undefined).map(claimedOf),
  };
}

type OutcomeKind = 'delivered' | 'deferred' | 'bounced' | 'failed';
interface Outcome {
  id: number;
  contactId: string | null;
  kind: OutcomeKind;
  detail: string;
  attempts: number;
  /** The row was committed 'sent' before this answer. */
  afterSent: boolean;
}

/** The send of one run: what every recipient shares. */
interface SendContext {
  campaign: CampaignState;
  template: PreparedTemplate;
  merge: MergeContext;
  from: { name: string; address: string };
  /** From and Reply-To, encoded once for the send (mime.ts). */
  headers: string;
  senderDomain: string;
  /** The key of the tenant's verified domain of the From address: messages are DKIM-signed with it (domains/dkim.ts). */
  dkim: DkimKey | null;
}

/** One recipient's message, or why it is not sent. */
function buildMessage(
  deps: SenderDeps,
  ctx: SendContext,
  row: Claimed,
): { to: string; raw: Buffer; messageId: string } | { failed: string } {
  const contact = row.contact;
  if (!contact) return { failed: 'The contact was deleted before the e-mail was sent.' };
  if (contact.status !== 'subscribed') return { failed: `The contact is ${contact.status}: not sent.` };
  const campaigns = deps.config.campaigns;
  let to = row.address;
  if (row.channel === 'wallet') {
    if (!contact.wallet || !campaigns.walletMailDomain) return { failed: 'The wallet has no mail domain set.' };
    to = `${toChecksumAddress(contact.wallet)}@${campaigns.walletMailDomain}`;
  } else if (contact.email) {
    to = contact.email;
  }
  const urls = trackingUrls(campaigns.trackingUrl, campaigns.trackingSecret, row.id);
  let rendered;
  try {
    rendered = renderMessage(
      ctx.template,
      contactScope(
        {
          email: contact.email,
          wallet: contact.wallet,
          first_name: contact.first_name,
          last_name: contact.last_name,
          attributes: contact.attributes,
        },
        ctx.merge.attributes,
        ctx.merge.community,
        { unsubscribe_url: urls.unsubscribe, view_in_browser_url: urls.view },
      ),
    );
  } catch (error) {
    return { failed: `The e-mail could not be rendered: ${error instanceof Error ? error.message : String(error)}` };
  }
  const messageId = `<${ctx.campaign.id}.${row.id}@${ctx.senderDomain}>`;
  const raw = buildMime(ctx.headers, {
    to,
    subject: rendered.subject,
    html: decorateHtml(rendered.html, urls, ctx.campaign.tracking),
    text: decorateText(rendered.text, urls, ctx.campaign.tracking),
    messageId,
    headers: campaignHeaders(urls, row.id, campaigns.unsubscribeMailbox || null),
  });
  return { to, raw, messageId };
}

/** A PostgreSQL array literal of integers (one parameter, cast with `::bigint[]`). */
function bigintArray(ids: number[]): string {
  return `{${ids.join(',')}}`;
}

/** A PostgreSQL array literal of texts (one parameter, cast with `::text[]`): each element quoted. */
function textArray(items: string[]): string {
  return `{${items.map((t) => `"${t.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

function values(rows: SQL[]): SQL {
  return sql.join(rows, sql`, `);
}

/** Records events of one type (and their minute counts). */
async function addEvents(
  tx: Queryable,
  campaign: CampaignState,
  type: CampaignEventType,
  items: { id: number; detail: string | null }[],
  at: Date,
) {
  if (items.length === 0) return;
  await tx.execute(
    sql`insert into campaign_events (tenant_id, campaign_id, recipient_id, type, detail, at) values ${values(
      items.map((i) => sql`(${campaign.tenantId}::uuid, ${campaign.id}::uuid, ${i.id}, ${type}, ${i.detail}, ${at})`),
    )}`,
  );
  await countEvents(tx, campaign.id, type, at, items.length);
}

/** A row a commit makes 'sent' (or, its answer known already, 'delivered'). */
interface Move {
  id: number;
  messageId: string;
  delivered: boolean;
}

/**
 * The step every commit takes, as ONE statement: the rows this process still holds ('sending', its
 * claim) become 'sent' (`moved`, with the plan usage; 'delivered' at once for those whose answer came
 * before their commit, on embedded PGlite), the delivered answers' rows 'delivered' (`done`), the
 * campaign's `sent` and `delivered` counters go up by their numbers (one update: a statement must not
 * update the campaign's row twice) and the chart's minute counts go up (event-minutes.ts). A row's
 * 'sent' and 'delivered' are its `sent_at` and `delivered_at` (the timeline reads them there), not
 * event rows: two indexed rows per message fewer. The two sets of rows never meet: a row in `done`
 * was committed before. Returns the ids moved.
 */
async function sentAndDelivered(
  db: Queryable,
  worker: string,
  campaign: { id: string; tenantId: string },
  moves: Move[],
  delivered: Outcome[],
  at: Date,
): Promise<Set<number>> {
  if (moves.length === 0 && delivered.length === 0) return new Set();
  const none = sql`select null::bigint as id, null::text as status where false`;
  // The rows as array parameters: the statement's text and its number of parameters stay the same
  // whatever the group's size (values lists cost a parameter per field to bind).
  const moved =
    moves.length === 0
      ? none
      : sql`update campaign_recipients as r
               set status = v.status, sent_at = ${at}, message_id = v.mid, error = null,
                   delivered_at = case when v.status = 'delivered' then ${at}::timestamptz end
              from unnest(${bigintArray(moves.map((m) => m.id))}::bigint[],
                          ${textArray(moves.map((m) => m.messageId))}::text[],
                          ${textArray(moves.map((m) => (m.delivered ? 'delivered' : 'sent')))}::text[]) as v(id, mid, status)
             where r.id = v.id and r.status = 'sending' and r.claimed_by = ${worker}
            returning r.id, r.status`;
  const done =
    delivered.length === 0
      ? none
      : sql`update campaign_recipients as r set status = 'delivered', delivered_at = ${at}, error = null
             where r.id = any(${bigintArray(delivered.map((o) => o.id))}::bigint[]) returning r.id, r.status`;
  const sentN = sql`select count(*) from moved`;
  const doneN = sql`select count(*) from (select id from moved where status = 'delivered' union all select id from done) d`;
  const rows = await queryRows(
    db,
    sql`with moved as (${moved}),
          done as (${done}),
          usage as (${recordSentSql(campaign.tenantId, sentN, at)}),
          counted as (update campaigns set sent = sent + (${sentN}), delivered = delivered + (${doneN})
                       where id = ${campaign.id}::uuid
                         and (exists (select 1 from moved) or exists (select 1 from done))),
          sent_minutes as (${countEventsSql(campaign.id, 'sent', at, sentN)}),
          delivered_minutes as (${countEventsSql(campaign.id, 'delivered', at, doneN)})
        select id from moved`,
  );
  return new Set(rows.map((r) => intOf(r, 'id')));
}

/** Applies the other answers (deferred, bounced, failed) to their rows, counters, events and contacts. */
async function applyOutcomes(tx: Queryable, deps: SenderDeps, campaign: CampaignState, outcomes: Outcome[], at: Date) {
  if (outcomes.length === 0) return;
  const { maxAttempts, retryDelaySeconds } = deps.config.campaigns;
  const bounced = outcomes.filter((o) => o.kind === 'bounced');
  const retry = outcomes.filter((o) => o.kind === 'deferred' && o.attempts < maxAttempts);
  const failed = [
    ...outcomes.filter((o) => o.kind === 'failed'),
    ...outcomes.filter((o) => o.kind === 'deferred' && o.attempts >= maxAttempts),
  ];
  const set = async (list: Outcome[], status: string) => {
    if (list.length === 0) return;
    await tx.execute(
      sql`update campaign_recipients as r set status = ${status}, error = v.detail
            from (values ${values(list.map((o) => sql`(${o.id}::bigint, ${o.detail}::text)`))}) as v(id, detail)
           where r.id = v.id`,
    );
  };
  await set(bounced, 'bounced');
  await set(failed, 'failed');
  for (const o of retry) {
    const next = new Date(at.getTime() + retryDelaySeconds * 1000 * 2 ** Math.max(0, o.attempts - 1));
    await tx.execute(
      sql`update campaign_recipients set status = 'deferred', next_attempt_at = ${next}, error = ${o.detail},
                 claimed_by = null, claimed_at = null
           where id = ${o.id}`,
    );
  }
  await markBounced(
    tx,
    campaign.tenantId,
    bounced.flatMap((o) => (o.contactId ? [o.contactId] : [])),
  );
  const unsent = retry.filter((o) => o.afterSent).length + failed.filter((o) => o.afterSent).length;
  await tx.execute(
    sql`update campaigns set bounced = bounced + ${bounced.length}, failed = failed + ${failed.length},
               sent = sent - ${unsent}
         where id = ${campaign.id}::uuid`,
  );
  const events = (list: Outcome[]) => list.map((o) => ({ id: o.id, detail: o.detail }));
  await addEvents(tx, campaign, 'bounced', events(bounced), at);
  await addEvents(tx, campaign, 'deferred', events(retry), at);
  await addEvents(tx, campaign, 'failed', events(failed), at);
}

function outcomeOf(answer: SmtpAnswer): { kind: OutcomeKind; detail: string } {
  if (answer.code >= 200 && answer.code < 300) return { kind: 'delivered', detail: answer.text };
  if (answer.code >= 500) return { kind: 'bounced', detail: answer.text };
  // 4xx, and a connection that failed before an answer: temporary.
  return { kind: 'deferred', detail: answer.text };
}

/** A recipient's message, built and waiting for a connection. */
interface Ready {
  row: Claimed;
  to: string;
  raw: Buffer;
  messageId: string;
}

/** What rides along: an SMTP answer, or a note on a row that got no answer after its data. */
type Rider = Outcome | { id: number; note: string };

/** What a run's group commit commits for a connection: this row is 'sent'. */
interface SentRequest {
  row: Claimed;
  messageId: string;
  /** PostgreSQL: ends the message's data, called in the same synchronous frame as the commit's hand-out. */
  end: () => void;
  /** Embedded PGlite: the message was ended before its commit (ends-log.ts), and this is its answer. */
  answer?: Rider;
}

/**
 * Fault injection for the kill tests (send-kill.test.ts; never set otherwise): on embedded PGlite, the
 * process kills itself with SIGKILL right after it wrote the end of its Nth message, before that row's
 * commit: the moment ends-log.ts exists for.
 */
const KILL_AFTER_ENDS = Number(process.env.TEST_KILL_AFTER_ENDS) || 0;
let endsWritten = 0;

/**
 * THE commit of a run: the requested rows become 'sent' (only while this process holds their claim;
 * a row whose claim was taken away answers false and its message is dropped), with the campaign's
 * counter, the plan usage and the chart's minute counts; and the answers that came since are recorded.
 *
 * The rows, the delivered answers and all that follows are ONE statement (array parameters). On a
 * server the connections wait for the commit, so its length bounds the throughput: one statement
 * instead of the sent rows and the delivered rows apart.
 *
 * On a server, rows become 'sent' only by this process's COMMIT, which it sends once the statement answered. A
 * server runs a statement it received to its end even when the client died meanwhile (it notices only
 * when it answers), and a statement outside a transaction commits itself: a process killed while that
 * statement ran would leave rows 'sent' whose data it never ended, and the restart skips them. In a
 * transaction, a process killed before its COMMIT commits nothing: the rows stay 'sending' and are
 * sent again. Without rows to make 'sent' (delivered answers alone: no data waits for them), the
 * statement commits itself. Other answers take the transaction too. The results are handed out the
 * moment the commit cannot be undone, and the committed messages' ends written in that same
 * synchronous frame (`end`, before `settle` resolves the connections' requests): as soon as COMMIT is
 * written, before its answer (commit-on-wire.ts).
 *
 * Embedded PGlite: the messages were ended before (their lines in the run's ends log say so), and
 * each request brings its answer. A row whose answer was delivered becomes 'delivered' at once (one
 * row version fewer); the other answers are applied after, in the same transaction. Without other
 * answers or notes it is one statement, committing itself: a kill before it leaves the rows
 * 'sending', and the start recovers them from the ends log.
 */
async function commitGroup(
  deps: SenderDeps,
  campaign: CampaignState,
  requests: SentRequest[],
  riders: Rider[],
  settle: (results: boolean[]) => void,
): Promise<boolean[]> {
  const at = new Date();
  const answers = riders.concat(requests.flatMap((r) => (r.answer ? [r.answer] : [])));
  const isDelivered = (r: Rider | undefined) => r !== undefined && 'kind' in r && r.kind === 'delivered';
  const outcomes = answers.filter((r): r is Outcome => 'kind' in r);
  const delivered = riders.filter((r): r is Outcome => isDelivered(r));
  const others = outcomes.filter((o) => o.kind !== 'delivered');
  const notes = answers.filter((r): r is { id: number; note: string } => 'note' in r);
  const moves = requests.map((r) => ({ id: r.row.id, messageId: r.messageId, delivered: isDelivered(r.answer) }));
  const resultsOf = (committed: Set<number>) => requests.map((p) => committed.has(p.row.id));
  const pglite = isPglite(deps.db);
  // One statement, committing itself: answers alone (no data waits for them), or on embedded PGlite
  // rows whose messages are ended already.
  if (others.length === 0 && notes.length === 0 && (requests.length === 0 || pglite)) {
    return resultsOf(await sentAndDelivered(deps.db, deps.worker, campaign, moves, delivered, at));
  }
  const group = async (tx: Database) => {
    const sent = await sentAndDelivered(tx, deps.worker, campaign, moves, delivered, at);
    await applyOutcomes(tx, deps, campaign, others, at);
    if (notes.length > 0) {
      await tx.execute(
        sql`update campaign_recipients as r set error = v.note
              from (values ${values(notes.map((n) => sql`(${n.id}::bigint, ${n.note}::text)`))}) as v(id, note)
             where r.id = v.id`,
      );
    }
    return resultsOf(sent);
  };
  const handOut = (results: boolean[]) => {
    requests.forEach((request, i) => results[i] && request.end());
    settle(results);
  };
  if (!pglite) return transactionCommittedOnWire(deps.db, group, handOut);
  return deps.db.transaction(group);
}

/**
 * Embedded PGlite, at start: the rows the previous process left 'sending' whose messages it ended
 * (their lines in its runs' ends logs, ends-log.ts) become 'sent', with what their commit would have
 * counted (the campaign's `sent`, the plan usage and the chart's minute counts); their
 * answers were never recorded. Rows of other processes, or committed already, are left as they are.
 * Returns how many. The rows it left 'sending' otherwise are queued again after this (jobs.ts).
 */
export async function recoverEnded(db: Database, endsDir: string): Promise<number> {
  let recovered = 0;
  for (const { run, remove } of leftByRuns(endsDir)) {
    if (run && run.ends.length > 0) {
      const [row] = await queryRows(db, sql`select tenant_id::text from campaigns where id = ${run.campaignId}::uuid`);
      const tenantId = row ? textOf(row, 'tenant_id') : null;
      if (tenantId) {
        const moves = run.ends.map((e) => ({ ...e, delivered: false }));
        const campaign = { id: run.campaignId, tenantId };
        recovered += (await sentAndDelivered(db, run.worker, campaign, moves, [], run.at)).size;
      }
    }
    remove();
  }
  return recovered;
}

/** Why a run stops sending before its recipients run out. */
type StopReason = 'cancelled' | 'not-sending' | 'volume' | 'time' | 'aborted' | 'held';
/** Stops after which the rows already claimed are still sent (they fit the volume; the run's time is soft). */
const DRAINED = new Set<StopReason>(['volume', 'time']);

/**
 * Claims and renders ahead of the connections: a batch of rows is claimed (one statement) and built
 * (a turn of the event loop after each message) while the connections send the previous one. The
 * checks between batches: the campaign's status at most every second (pause and cancel take effect
 * within it), the plan's volume, the send rates, the run's time and the runner's abort.
 */
class Feed {
  private buffer: Ready[] = [];
  private filling: Promise<void> | null = null;
  private statusReadAt = Date.now();
  private allowance = { left: 0, readAt: 0 };
  private noticesAt = 0;
  /** When deferred rows were last looked for. */
  private retriesReadAt = 0;
  private statusRead: Promise<void> | null = null;
  /** A part of the audience being taken into rows (audience.ts `expandPart`), one at a time. */
  private expanding: Promise<boolean> | null = null;
  /** Rows this run took into the queue and has not claimed yet (an estimate when two processes send). */
  private queuedAhead = 0;
  /** No part was left to take (parts are only written before sending starts, so none comes later). */
  private partsDone = false;
  /**
   * Embedded PGlite, once a claim of queued rows came back short: rows are claimed straight from the
   * audience's parts (`claimFromPart`). One process holds that database, and nothing queues a row
   * during its run (rows go back to the queue only when a run stops, and at start).
   */
  private fromParts = false;
  /** Rows claimed so far by this run. */
  claimed = 0;
  /** Of those, rows whose claim ended: committed 'sent' (or found taken away), or settled before any data. */
  settled = 0;
  stopped: StopReason | null = null;
  /** Nothing was left to claim. */
  exhausted = false;
  /** What stopped the run with an error (a failed statement). */
  error: unknown = null;

  constructor(
    private readonly deps: SenderDeps,
    private readonly ctx: SendContext,
    private readonly commits: GroupCommit<SentRequest, boolean, Rider>,
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
  private readonly fail = (error: unknown) => {
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

  /**
   * Takes the next part of the audience into queued rows; callers share one in progress. False when
   * no part was waiting.
   */
  private expand(): Promise<boolean> {
    const { deps, ctx } = this;
    if (this.partsDone) return Promise.resolve(false);
    this.expanding ??= expandPart(deps.db, ctx.campaign.id, ctx.campaign.tenantId, 'queued', AUDIENCE_PART)
      .then((taken) => {
        if (taken) this.queuedAhead += AUDIENCE_PART;
        else this.partsDone = true;
        return taken;
      })
      .finally(() => (this.expanding = null));
    return this.expanding;
  }

  /** Waits for a fill in progress; the rows claimed but not sent go back to the queue. */
  async release(): Promise<void> {
    while (this.filling) await this.filling;
    await this.expanding?.catch(this.fail);
    const left = this.buffer.splice(0);
    if (left.length === 0) return;
    await this.deps.db.execute(
      sql`update campaign_recipients set status = 'queued', claimed_by = null, claimed_at = null,
                 attempts = greatest(0, attempts - 1)
           where id in (${values(left.map((r) => sql`${r.row.id}::bigint`))})
             and status = 'sending' and claimed_by = ${this.deps.worker}`,
    );
  }

  private async fillOnce(): Promise<void> {
    const { deps, ctx } = this;
    const { db } = deps;
    const campaign = ctx.campaign;
    if (this.signal.aborted) return void (this.stopped = 'aborted');
    if (Date.now() > this.endAt) return void (this.stopped = 'time');
    if (Date.now() - this.statusReadAt >= STATUS_EVERY_MS) await this.readStatus();
    if (this.stopped) return;
    // Plan usage notices at most every second, once messages went out (not between a commit and its ends).
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
    if (Date.now() - this.allowance.readAt >= STATUS_EVERY_MS || this.allowance.left <= 0) {
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
    const retries = () => claim(deps, campaign.id, size - rows.length, 'deferred');
    let rows: Claimed[] = [];
    if (retriesDue) {
      this.retriesReadAt = Date.now();
      rows = await retries();
    }
    // Queued rows; the next part of the audience is taken into rows when they run out, and ahead of
    // that, beside the sending, while fewer than a few batches are left (audience.ts). Embedded PGlite
    // claims from the parts themselves once the queued rows ran out (`fromParts`).
    while (rows.length < size) {
      if (this.fromParts) {
        if (this.partsDone) break;
        const taken = await claimFromPart(deps, campaign, Math.min(size - rows.length, PGLITE_CLAIM_MAX));
        rows = rows.concat(taken.rows);
        if (!taken.part) this.partsDone = true;
        continue;
      }
      const queued = await claim(deps, campaign.id, size - rows.length, 'queued');
      this.queuedAhead -= queued.length;
      rows = rows.concat(queued);
      if (rows.length >= size) break;
      if (isPglite(db)) this.fromParts = true;
      else if (!(await this.expand())) break;
    }
    if (rows.length < size && !retriesDue) rows = rows.concat(await retries());
    if (!isPglite(db) && this.queuedAhead < this.batch * EXPAND_AHEAD_BATCHES) void this.expand().catch(this.fail);
    if (rows.length === 0) return void (this.exhausted = true);
    this.claimed += rows.length;
    this.allowance.left -= rows.length;
    for (const [i, row] of rows.entries()) {
      if (i > 0 && i % RENDER_SLICE === 0) await nextTurn();
      let message = buildMessage(deps, ctx, row);
      if (ctx.dkim && !('failed' in message)) message = await signed(message, ctx.dkim);
      if ('failed' in message) {
        this.commits.ride({
          id: row.id,
          contactId: row.contactId,
          kind: 'failed',
          detail: message.failed,
          attempts: row.attempts,
          afterSent: false,
        });
      } else this.buffer.push({ row, ...message });
    }
  }
}

/** The message with its DKIM signature, or why it is not sent (a key mailauth refuses). */
async function signed(
  message: { to: string; raw: Buffer; messageId: string },
  key: DkimKey,
): Promise<{ to: string; raw: Buffer; messageId: string } | { failed: string }> {
  try {
    return { ...message, raw: await dkimSignMessage(message.raw, key) };
  } catch (error) {
    return { failed: `The e-mail could not be signed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** A message's answer as the commit records it (the row was committed 'sent' before, or is with it). */
function answerRider(row: Claimed, answer: SmtpAnswer): Rider {
  // No answer at all after the end of the data: the message may have been taken, so it is not sent
  // again; the row stays 'sent' with the error (the delivery log shows it).
  if (answer.code === 0) return { id: row.id, note: `${NO_ANSWER} ${answer.text}` };
  const { kind, detail } = outcomeOf(answer);
  return { id: row.id, contactId: row.contactId, kind, detail, attempts: row.attempts, afterSent: true };
}

/**
 * One connection's loop: prepare a message, make sure nothing can send its row again, end it, hand
 * the answer over. On a server the row's commit comes before the end (the connection waits for it);
 * on embedded PGlite a line in the run's ends log does (`ends`; none for a database in memory), and
 * the commit, with the answer, comes after: the connection goes on while fewer than
 * PGLITE_COMMITS_AHEAD of its rows wait for their commit, so at most that many and the one in hand are
 * ended and not committed.
 */
async function connectionLoop(
  feed: Feed,
  commits: GroupCommit<SentRequest, boolean, Rider>,
  transport: CampaignTransport,
  from: string,
  endsFirst: { log: EndsLog | null } | null,
) {
  /** Embedded PGlite: this connection's rows whose messages ended, waiting for their commit. */
  const committing: Promise<boolean>[] = [];
  try {
    for (;;) {
      const m = await feed.next();
      if (!m) return;
      const result = await transport.prepare({ from, to: m.to, raw: m.raw });
      if ('refused' in result) {
        const { kind, detail } = outcomeOf(result.refused);
        commits.ride({
          id: m.row.id,
          contactId: m.row.contactId,
          kind,
          detail,
          attempts: m.row.attempts,
          afterSent: false,
        });
        continue;
      }
      if (endsFirst) {
        endsFirst.log?.ending(m.row.id, m.messageId);
        const answered = result.prepared.finish();
        if (++endsWritten === KILL_AFTER_ENDS) process.kill(process.pid, 'SIGKILL');
        const answer = answerRider(m.row, await answered);
        if (committing.length >= PGLITE_COMMITS_AHEAD) await committing.shift();
        const commit = commits.request({ row: m.row, messageId: m.messageId, end: () => undefined, answer });
        commit.catch(() => undefined); // awaited in turn or at the end; not an unhandled rejection meanwhile
        committing.push(commit);
        continue;
      }
      // The end of the data is written by the commit's hand-out, in the frame that learns of the commit.
      const ending: { answer?: Promise<SmtpAnswer> } = {};
      const end = () => void (ending.answer = result.prepared.finish());
      let committed: boolean;
      try {
        committed = await commits.request({ row: m.row, messageId: m.messageId, end });
      } catch (error) {
        result.prepared.abort(); // not committed: the server discards it, the row goes back to the queue
        throw error;
      }
      if (!committed) {
        result.prepared.abort(); // the claim was taken away: another process sends it
        continue;
      }
      commits.ride(answerRider(m.row, await (ending.answer ?? result.prepared.finish())));
    }
  } finally {
    await Promise.all(committing); // a failed commit fails this loop (and the run)
  }
}

/** Starts a due scheduled campaign; takes the template version of a campaign that has none yet. */
async function start(deps: SenderDeps, campaign: CampaignState): Promise<boolean> {
  if (campaign.status === 'scheduled') {
    if (campaign.scheduledAt === null || campaign.scheduledAt > Date.now()) return false;
    const started = await changeStatus(
      deps.db,
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
    await deps.db.execute(
      sql`update campaigns set template_version = (select t.version from templates t where t.id = campaigns.template_id),
                 started_at = coalesce(started_at, now())
           where id = ${campaign.id}::uuid and template_version is null`,
    );
  }
  return true;
}

async function fail(deps: SenderDeps, campaignId: string, reason: string) {
  await changeStatus(
    deps.db,
    campaignId,
    ['sending'],
    'failed',
    sql`, failure_reason = ${reason}, finished_at = now()`,
  );
}

function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1) || 'localhost';
}

/**
 * A tenant whose sending a platform admin paused (tenant settings' `sending_paused`, spec section 7), or
 * a deleted tenant: its campaigns send nothing and wait, nothing lost. Unpausing queues them at once
 * (tenants/update.ts); meanwhile a held campaign looks again every {@link HELD_RETRY_MS}.
 */
const heldSql = sql`(t.sending_paused or t.deleted_at is not null)`;
export const HELD_RETRY_MS = 60_000;
const heldUntil = () => new Date(Date.now() + HELD_RETRY_MS);

async function tenantHeld(db: Database, tenantId: string): Promise<boolean> {
  const [row] = await queryRows(db, sql`select ${heldSql} as held from tenants t where t.id = ${tenantId}::uuid`);
  return row?.held === true;
}

/** One run of the send job for a campaign. */
export async function runCampaign(deps: SenderDeps, campaignId: string, signal: AbortSignal): Promise<void> {
  const { db, config } = deps;
  let campaign = await loadCampaign(db, campaignId);
  if (!campaign) return;
  if (campaign.status === 'cancelled') return skipRemaining(db, campaign);
  if (await tenantHeld(db, campaign.tenantId)) return enqueueCampaign(deps.jobs, campaignId, heldUntil());
  if (!(await start(deps, campaign))) return;
  campaign = await loadCampaign(db, campaignId);
  if (!campaign || campaign.status !== 'sending') return;
  if (!campaign.templateId || campaign.templateVersion === null) return fail(deps, campaignId, TEMPLATE_GONE);

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
  // PostgreSQL: claims of a process that stopped beating are given back (PGlite: at start, jobs.ts).
  if (!isPglite(db)) await releaseClaims(db, campaign.id, config.jobs.heartbeatSeconds);

  // The From address (the platform's when its domain stopped verifying) and, on a verified domain of
  // the tenant, that domain's DKIM key (read once per run).
  const sender = await effectiveSender(
    db,
    campaign.tenantId,
    { from: campaign.fromEmail, replyTo: campaign.replyTo },
    config.campaigns.defaultFrom,
  );
  const dkim = await dkimKeyFor(db, campaign.tenantId, sender.from);
  let ctx: SendContext;
  try {
    const templates = { db, publicUrl: config.onboarding.publicUrl };
    const loaded = await loadTemplate(templates, campaign.tenantId, campaign.templateId, campaign.templateVersion);
    const merge = await loadMergeContext(db, campaign.tenantId, config.onboarding.publicUrl);
    const prepared = prepareTemplate(
      {
        subject: campaign.subject || loaded.version.subject,
        preview_text: campaign.previewText || loaded.version.previewText,
      },
      { html: campaignHtml(loaded.version.html, campaign.previewText), text: loaded.version.text },
    );
    const address = sender.from;
    ctx = {
      campaign,
      template: bindSend(prepared, {
        community: { ...merge.community, postal_address: merge.community.postal_address ?? '' },
      }),
      merge,
      from: { name: campaign.fromName || merge.community.name, address },
      headers: sharedHeaders({
        from: { name: campaign.fromName || merge.community.name, address },
        ...(sender.replyTo ? { replyTo: sender.replyTo } : {}),
      }),
      senderDomain: domainOf(address),
      dkim,
    };
  } catch (error) {
    deps.log.error({ err: error, campaignId }, 'campaign template could not be loaded');
    return fail(deps, campaignId, TEMPLATE_GONE);
  }

  const transport = deps.transport?.() ?? makeTransport(config);
  // Embedded PGlite: messages are ended before their commit, each after a line in this run's ends log.
  const endsFirst = isPglite(db)
    ? { log: deps.endsDir === null ? null : new EndsLog(deps.endsDir, { campaignId, worker: deps.worker }) }
    : null;
  const commits = new GroupCommit<SentRequest, boolean, Rider>(
    async (requests, riders, settle) => {
      const results = await commitGroup(deps, campaign, requests, riders, settle);
      feed.settled += requests.length + riders.filter((r) => 'kind' in r && !r.afterSent).length;
      return results;
    },
    undefined,
    // On embedded PGlite a commit costs the database's thread about 3 ms however few rows it holds:
    // gather half the connections' messages, or 5 ms, into each (group-commit.ts). A server commits in
    // its own process, so there the next commit starts at once.
    isPglite(deps.db)
      ? { enough: Math.ceil(transport.slots / 2), waitMs: PGLITE_GATHER_MS, most: PGLITE_COMMIT_MAX }
      : null,
  );
  const batch = Math.max(CLAIM_BATCH_MIN, transport.slots * 4);
  const feed = new Feed(deps, ctx, commits, batch, signal, Date.now() + RUN_MS);
  let failure: unknown = null;
  try {
    const loops = await Promise.allSettled(
      Array.from({ length: transport.slots }, () =>
        connectionLoop(feed, commits, transport, ctx.from.address, endsFirst).catch((error: unknown) => {
          feed.stopped ??= 'aborted'; // the other connections stop after the message in hand
          throw error;
        }),
      ),
    );
    failure = loops.find((l): l is PromiseRejectedResult => l.status === 'rejected')?.reason ?? null;
  } finally {
    feed.stopped ??= 'aborted';
    await feed.release().catch((error: unknown) => (failure ??= error));
    await commits.flush();
    // Every row the run ended is committed, unless a commit failed: then the next start recovers them.
    endsFirst?.log?.close(commits.failure === null);
    failure ??= commits.failure ?? feed.error;
    await transport.close();
  }
  if (failure) throw failure;
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
      return enqueueCampaign(deps.jobs, campaignId);
    default:
      return settle(deps, campaignId);
  }
}

/** Nothing could be claimed: the campaign is sent, or waits for retries, or another process holds rows. */
async function settle(deps: SenderDeps, campaignId: string): Promise<void> {
  const [row] = await queryRows(
    deps.db,
    sql`select count(*) filter (where status in ('queued', 'sending'))::int as busy,
               (extract(epoch from min(next_attempt_at) filter (where status = 'deferred')) * 1000)::float8 as next_ms
          from campaign_recipients where campaign_id = ${campaignId}::uuid and status in ('queued', 'sending', 'deferred')`,
  );
  // Parts of the audience not yet taken into rows count as busy (another process may be taking one).
  const busy = (row ? intOf(row, 'busy') : 0) + (await partsWaiting(deps.db, campaignId));
  const next = row && row.next_ms !== null && row.next_ms !== undefined ? intOf(row, 'next_ms') : null;
  if (busy > 0) {
    // Rows held by another process (or given back meanwhile): look again after the heartbeat.
    await enqueueCampaign(deps.jobs, campaignId, new Date(Date.now() + deps.config.jobs.heartbeatSeconds * 1000));
    return;
  }
  if (next !== null) {
    await enqueueCampaign(deps.jobs, campaignId, new Date(Math.max(next, Date.now())));
    return;
  }
  await changeStatus(deps.db, campaignId, ['sending'], 'sent', sql`, finished_at = now()`);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
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

export function makeTransport(config: Config): CampaignTransport {
  return config.smtpUrl ? smtpTransport(config.smtpUrl, config.campaigns.poolSize) : outboxTransport(config.outboxDir);
}
