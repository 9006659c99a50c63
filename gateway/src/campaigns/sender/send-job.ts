/**
 * The send job (spec section 2, engagement/emails: sending, pause, resume, cancel; the delivery log's
 * statuses). One run of CAMPAIGN_SEND_QUEUE for a campaign:
 *
 * 1. A scheduled campaign whose time has come starts: 'sending', `started_at`, the template's current
 *    version taken. A job for a campaign that is no longer due (rescheduled, unscheduled, paused) does
 *    nothing; for a cancelled one it turns the rows still waiting into 'skipped'.
 * 2. The audience is taken once (campaigns/audience.ts, `audience_taken_at`).
 * 3. Groups of recipients are claimed (`FOR UPDATE SKIP LOCKED`: two processes never claim one row),
 *    rendered, and sent EXACTLY ONCE: each message is prepared up to the end of its data
 *    (sender/transport.ts), the group is committed 'sent' in one transaction (with the plan usage, the
 *    campaign's counter, the events and their minute counts), and only then are the messages ended and
 *    the server's answers read. A process killed before the commit leaves its rows 'sending' with
 *    messages the server discards; they are queued again (PGlite: at start; PostgreSQL: once their
 *    claim is older than the job heartbeat). A row whose claim was taken away meanwhile is not
 *    committed by this process (the commit checks the claim) and its message is dropped.
 * 4. Answers: 250 delivered; 4xx deferred, retried after `retryDelaySeconds` doubling per attempt, at
 *    most `maxAttempts` attempts, then failed; 5xx bounced, and the contact's status becomes 'bounced'
 *    (later sends leave them out). The same at RCPT time, before any data (nothing committed 'sent').
 *    A deferred message is taken off the campaign's `sent` figure (it is sent again later); the plan
 *    usage keeps every attempt.
 * 5. Between groups (at most every second) the campaign's status is read again: paused or cancelled
 *    stop the run within that second plus the group in hand. The plan's volume is checked before
 *    each group: used up → 'paused' with a reason (resuming after an upgrade carries on).
 * 6. When nothing is left queued, sending or due → 'sent'; rows deferred for later → the job is sent
 *    again for the earliest retry. A run lasts at most RUN_MS, then sends itself again (other jobs
 *    get their turn), and stops after the group in hand when the runner aborts it.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { Config } from '../../config';
import type { CampaignEventType } from '../../contracts';
import type { Database } from '../../db/index';
import { isPglite } from '../../lib/db-helpers';
import { nextTurn } from '../../lib/bounded-work';
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
import { takeAudience } from '../audience';
import { countEvents } from '../event-minutes';
import { campaignHeaders, decorateHtml, decorateText, type TrackingSettings } from '../tracking/decorate';
import { trackingUrls } from '../tracking/links';
import { emailAllowance, recordSent } from '../usage';
import { checkUsageNotices } from '../usage-notices';
import { enqueueCampaign } from './queue';
import { SendRates } from './rate';
import {
  outboxTransport,
  smtpTransport,
  type CampaignTransport,
  type PrepareResult,
  type SmtpAnswer,
} from './transport';

/** How long one run sends before it hands over to a new job. */
export const RUN_MS = 30_000;
/** The campaign's status is read again at most this often (pause and cancel take effect within 2 s). */
const STATUS_EVERY_MS = 1_000;
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

/** Cancelled: the rows still waiting become 'skipped', a slice per statement. */
export async function skipRemaining(db: Database, campaignId: string): Promise<void> {
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
        select claimed.*, c.email, c.wallet, c.first_name, c.last_name, c.attributes, c.status as contact_status
          from claimed left join contacts c on c.id = claimed.contact_id
         order by claimed.id`,
  );
  return rows.map((r: Row) => ({
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
  }));
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
  senderDomain: string;
}

/** One recipient's message, or why it is not sent. */
async function buildMessage(
  deps: SenderDeps,
  ctx: SendContext,
  row: Claimed,
): Promise<{ to: string; raw: Buffer; messageId: string } | { failed: string }> {
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
  const composer = new MailComposer({
    from: ctx.from,
    to,
    ...(ctx.campaign.replyTo ? { replyTo: ctx.campaign.replyTo } : {}),
    subject: rendered.subject,
    html: decorateHtml(rendered.html, urls, ctx.campaign.tracking),
    text: decorateText(rendered.text, urls, ctx.campaign.tracking),
    messageId,
    headers: campaignHeaders(urls, row.id, campaigns.unsubscribeMailbox || null),
  });
  const raw = await composer.compile().build();
  return { to, raw, messageId };
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

/** Applies answers (delivered, deferred, bounced, failed) to their rows, counters, events and contacts. */
async function applyOutcomes(tx: Queryable, deps: SenderDeps, campaign: CampaignState, outcomes: Outcome[], at: Date) {
  if (outcomes.length === 0) return;
  const { maxAttempts, retryDelaySeconds } = deps.config.campaigns;
  const delivered = outcomes.filter((o) => o.kind === 'delivered');
  const bounced = outcomes.filter((o) => o.kind === 'bounced');
  const retry = outcomes.filter((o) => o.kind === 'deferred' && o.attempts < maxAttempts);
  const failed = [
    ...outcomes.filter((o) => o.kind === 'failed'),
    ...outcomes.filter((o) => o.kind === 'deferred' && o.attempts >= maxAttempts),
  ];
  const set = async (list: Outcome[], status: string, keepError = true) => {
    if (list.length === 0) return;
    await tx.execute(
      sql`update campaign_recipients as r set status = ${status},
                 error = ${keepError ? sql`v.detail` : sql`null`}
            from (values ${values(list.map((o) => sql`(${o.id}::bigint, ${o.detail}::text)`))}) as v(id, detail)
           where r.id = v.id`,
    );
  };
  await set(delivered, 'delivered', false);
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
  if (bounced.some((o) => o.contactId)) {
    const contactIds = bounced.flatMap((o) => (o.contactId ? [sql`${o.contactId}::uuid`] : []));
    await tx.execute(
      sql`update contacts set status = 'bounced', updated_at = now()
           where tenant_id = ${campaign.tenantId}::uuid and status = 'subscribed' and id in (${values(contactIds)})`,
    );
  }
  const unsent = retry.filter((o) => o.afterSent).length + failed.filter((o) => o.afterSent).length;
  await tx.execute(
    sql`update campaigns set delivered = delivered + ${delivered.length}, bounced = bounced + ${bounced.length},
               failed = failed + ${failed.length}, sent = sent - ${unsent}
         where id = ${campaign.id}::uuid`,
  );
  const events = (list: Outcome[]) => list.map((o) => ({ id: o.id, detail: o.kind === 'delivered' ? null : o.detail }));
  await addEvents(tx, campaign, 'delivered', events(delivered), at);
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

/** One group: claimed, prepared, committed 'sent', ended, answers recorded. Returns the rows claimed. */
async function sendGroup(
  deps: SenderDeps,
  ctx: SendContext,
  transport: CampaignTransport,
  size: number,
): Promise<number> {
  const { db } = deps;
  const campaign = ctx.campaign;
  let rows = await claim(deps, campaign.id, size, 'deferred');
  if (rows.length < size) rows = rows.concat(await claim(deps, campaign.id, size - rows.length, 'queued'));
  if (rows.length === 0) return 0;

  const early: Outcome[] = [];
  const prepared: { row: Claimed; messageId: string; result: PrepareResult }[] = [];
  await Promise.all(
    rows.map(async (row) => {
      const message = await buildMessage(deps, ctx, row);
      if ('failed' in message) {
        early.push({
          id: row.id,
          contactId: row.contactId,
          kind: 'failed',
          detail: message.failed,
          attempts: row.attempts,
          afterSent: false,
        });
        return;
      }
      const result = await transport.prepare({ from: ctx.from.address, to: message.to, raw: message.raw });
      if ('refused' in result) {
        const { kind, detail } = outcomeOf(result.refused);
        early.push({ id: row.id, contactId: row.contactId, kind, detail, attempts: row.attempts, afterSent: false });
      } else prepared.push({ row, messageId: message.messageId, result });
    }),
  );

  // THE commit: these rows are 'sent' before any of their messages is finished.
  const at = new Date();
  let committed = new Set<number>();
  await db.transaction(async (tx) => {
    if (prepared.length > 0) {
      const sent = await queryRows(
        tx,
        sql`update campaign_recipients as r set status = 'sent', sent_at = ${at}, message_id = v.mid, error = null
              from (values ${values(prepared.map((p) => sql`(${p.row.id}::bigint, ${p.messageId}::text)`))}) as v(id, mid)
             where r.id = v.id and r.status = 'sending' and r.claimed_by = ${deps.worker}
            returning r.id`,
      );
      committed = new Set(sent.map((r) => intOf(r, 'id')));
      const n = committed.size;
      await tx.execute(sql`update campaigns set sent = sent + ${n} where id = ${campaign.id}::uuid`);
      await recordSent(tx, campaign.tenantId, n, at);
      await addEvents(
        tx,
        campaign,
        'sent',
        [...committed].map((id) => ({ id, detail: null })),
        at,
      );
    }
    await applyOutcomes(tx, deps, campaign, early, at);
  });
  // After the commit: end the data, read the answers.
  const answers: Outcome[] = [];
  const unanswered: { id: number; detail: string }[] = [];
  await Promise.all(
    prepared.map(async (p) => {
      if (!('prepared' in p.result)) return;
      if (!committed.has(p.row.id)) {
        p.result.prepared.abort(); // the claim was taken away: another process sends it
        return;
      }
      const answer = await p.result.prepared.finish();
      // No answer at all after the end of the data: the message may have been taken, so it is not sent
      // again; the row stays 'sent' with the error (the delivery log shows it).
      if (answer.code === 0) {
        unanswered.push({ id: p.row.id, detail: `${NO_ANSWER} ${answer.text}` });
        return;
      }
      const { kind, detail } = outcomeOf(answer);
      answers.push({
        id: p.row.id,
        contactId: p.row.contactId,
        kind,
        detail,
        attempts: p.row.attempts,
        afterSent: true,
      });
    }),
  );
  if (answers.length > 0) await db.transaction((tx) => applyOutcomes(tx, deps, campaign, answers, new Date()));
  for (const u of unanswered) {
    await db.execute(sql`update campaign_recipients set error = ${u.detail} where id = ${u.id}`);
  }
  if (unanswered.length > 0) deps.log.warn({ campaignId: campaign.id, n: unanswered.length }, NO_ANSWER);
  // Plan usage notices once the messages are out (nothing may come between the commit and the ends).
  if (committed.size > 0) {
    await checkUsageNotices(db, deps.mailer, campaign.tenantId, at).catch((error: unknown) =>
      deps.log.error({ err: error }, 'usage notices failed'),
    );
  }

  return rows.length;
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

/** One run of the send job for a campaign. */
export async function runCampaign(deps: SenderDeps, campaignId: string, signal: AbortSignal): Promise<void> {
  const { db, config } = deps;
  let campaign = await loadCampaign(db, campaignId);
  if (!campaign) return;
  if (campaign.status === 'cancelled') return skipRemaining(db, campaignId);
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
      signal,
    );
    if (n === null) return; // stopped: the job is sent again and walks again (rows already taken stay)
    await db.execute(
      sql`update campaigns set recipients = ${n}, audience_taken_at = now() where id = ${campaign.id}::uuid`,
    );
  }
  // PostgreSQL: claims of a process that stopped beating are given back (PGlite: at start, jobs.ts).
  if (!isPglite(db)) await releaseClaims(db, campaign.id, config.jobs.heartbeatSeconds);

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
      { html: loaded.version.html, text: loaded.version.text },
    );
    const address = campaign.fromEmail || config.campaigns.defaultFrom;
    ctx = {
      campaign,
      template: bindSend(prepared, {
        community: { ...merge.community, postal_address: merge.community.postal_address ?? '' },
      }),
      merge,
      from: { name: campaign.fromName || merge.community.name, address },
      senderDomain: domainOf(address),
    };
  } catch (error) {
    deps.log.error({ err: error, campaignId }, 'campaign template could not be loaded');
    return fail(deps, campaignId, TEMPLATE_GONE);
  }

  const transport = deps.transport?.() ?? makeTransport(config);
  const endAt = Date.now() + RUN_MS;
  let statusReadAt = Date.now();
  let allowance = { left: 0, readAt: 0 };
  try {
    for (;;) {
      if (signal.aborted) return await enqueueCampaign(deps.jobs, campaignId);
      if (Date.now() - statusReadAt >= STATUS_EVERY_MS) {
        statusReadAt = Date.now();
        const [row] = await queryRows(db, sql`select status from campaigns where id = ${campaignId}::uuid`);
        const status = row ? textOf(row, 'status') : null;
        if (status === 'cancelled') return await skipRemaining(db, campaignId);
        if (status !== 'sending') return;
      }
      // The plan's volume, read again at most every second (the rows sent since are counted here).
      if (Date.now() - allowance.readAt >= STATUS_EVERY_MS || allowance.left <= 0) {
        const a = await emailAllowance(db, campaign.tenantId, new Date());
        allowance = { left: a.limit - a.used, readAt: Date.now() };
        if (allowance.left <= 0) {
          await changeStatus(db, campaignId, ['sending'], 'paused', sql`, failure_reason = ${VOLUME_USED_UP}`);
          return;
        }
      }
      let size = Math.min(transport.slots, allowance.left);
      const cap = deps.rates.groupCap();
      if (cap > 0) size = Math.min(size, cap);
      const wait = deps.rates.take(campaign.tenantId, size);
      if (wait > 0) await sleep(Math.min(wait, 1_000), signal);
      const claimed = await sendGroup(deps, ctx, transport, size);
      allowance.left -= claimed;
      if (claimed === 0) return await settle(deps, campaignId);
      if (Date.now() > endAt) return await enqueueCampaign(deps.jobs, campaignId);
      await nextTurn();
    }
  } finally {
    await transport.close();
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
  const busy = row ? intOf(row, 'busy') : 0;
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
