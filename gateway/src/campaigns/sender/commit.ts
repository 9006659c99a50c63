/**
 * The sender's one write (docs/sending.md, "The commit"): ONE statement that, for rows this run's lease
 * still holds,
 *
 * - hands rows over: 'sending' → 'handing' with `sent_at`, the message id, the plan usage, the
 *   campaign's `sent` and the chart's minute count: only while the lease is held, and only these
 *   rows' messages are then ended (the statement's answer comes after its commit);
 * - records answers: from 'handing' (after the data) or 'sending' (refused before any data, or never
 *   built) to delivered, deferred (retried at `next_attempt_at`, doubling from `retryDelaySeconds`,
 *   until `maxAttempts`, then failed), bounced (the contact too: contact-outcomes.ts), failed or
 *   unconfirmed (the data was handed over and no answer came);
 * - counts what it changed: the campaign's counters, events for the deferred, bounced, failed and
 *   unconfirmed, and the chart's minute counts;
 * - when the delivery events' listener may want the tenant's events, writes the rows sent, delivered
 *   and bounced into its outbox in the same statement (delivery-events.ts), and wakes it after the
 *   commit (the sender calls this with the database itself, not inside a transaction).
 *
 * Every change is fenced by the row's status and `claim_epoch`, and the counters count the rows
 * changed, never the rows asked for: an answer for a row the run no longer holds (its lease was taken
 * over) changes nothing and is reported back as dropped.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../lib/raw-sql';
import { intOf, queryRows } from '../../lib/raw-sql';
import { deliveryEventsCommitted, outboxInsertSql, wantsDeliveryEvents } from '../delivery-events';
import { countEventsSql } from '../event-minutes';
import { recordSentSql } from '../usage';
import { leaseHeld } from './lease';
import { carrierHooks } from './carrier';
import type { SmtpAnswer } from './transport';

export const NO_ANSWER = 'The mail server did not answer after the message: it may not have arrived.';

export type AnswerKind = 'delivered' | 'deferred' | 'bounced' | 'failed' | 'unconfirmed';

/** An answer for a claimed row: what happened, and whether its data had been handed over. */
export interface Answer {
  id: number;
  kind: AnswerKind;
  detail: string;
  afterData: boolean;
}

/** A row to hand over: its message is ended only if the commit hands it over. */
export interface Handing {
  id: number;
  messageId: string;
}

/** The SMTP answer as an answer kind: 2xx delivered, 5xx bounced, 4xx (and no connection) deferred. */
export function answerOf(id: number, answer: SmtpAnswer, afterData: boolean): Answer {
  if (afterData && answer.code === 0)
    return { id, kind: 'unconfirmed', detail: `${NO_ANSWER} ${answer.text}`, afterData };
  const kind = answer.code >= 200 && answer.code < 300 ? 'delivered' : answer.code >= 500 ? 'bounced' : 'deferred';
  return { id, kind, detail: answer.text, afterData };
}

export interface CommitScope {
  campaignId: string;
  tenantId: string;
  epoch: number;
  maxAttempts: number;
  retryDelaySeconds: number;
  /** A carrier of transactional messages (carrier.ts): its area's statement runs with the hand-overs. */
  carrier?: { id: string; templateId: string | null };
}

/** What a commit did: the rows handed over, and how many answers matched no row held. */
export interface Committed {
  handed: Set<number>;
  dropped: number;
}

/** A PostgreSQL array literal of integers (one parameter, cast with `::bigint[]`). */
function bigintArray(ids: number[]): string {
  return `{${ids.join(',')}}`;
}

/** A PostgreSQL array literal of texts (one parameter, cast with `::text[]`): each element quoted. */
function textArray(items: string[]): string {
  return `{${items.map((t) => `"${t.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

function boolArray(items: boolean[]): string {
  return `{${items.map((b) => (b ? 't' : 'f')).join(',')}}`;
}

const none = sql`select null::bigint as id where false`;

export async function commitGroup(
  db: Queryable,
  scope: CommitScope,
  handings: Handing[],
  answers: Answer[],
  at: Date,
): Promise<Committed> {
  if (handings.length === 0 && answers.length === 0) return { handed: new Set(), dropped: 0 };
  const { campaignId, tenantId, epoch, maxAttempts } = scope;
  // The delivery events' outbox (delivery-events.ts): its rows are written only when they may be wanted.
  const withEvents = wantsDeliveryEvents(db, tenantId);
  // Rows as array parameters: the statement's text and its number of parameters stay the same
  // whatever the group's size.
  const handed =
    handings.length === 0
      ? none
      : sql`update campaign_recipients as r
               set status = 'handing', sent_at = ${at}, message_id = h.mid, error = null
              from unnest(${bigintArray(handings.map((h) => h.id))}::bigint[],
                          ${textArray(handings.map((h) => h.messageId))}::text[]) as h(id, mid)
             where r.id = h.id and r.status = 'sending' and r.claim_epoch = ${epoch} and ${leaseHeld(epoch)}
            returning r.id`;
  const retry = sql`(v.kind = 'deferred' and r.attempts < ${maxAttempts})`;
  const answered =
    answers.length === 0
      ? sql`select null::bigint as id, null::text as status, null::uuid as contact_id, null::text as error,
                   false as after_data where false`
      : sql`update campaign_recipients as r
               set status = case when v.kind = 'deferred' and not ${retry} then 'failed' else v.kind end,
                   delivered_at = case when v.kind = 'delivered' then ${at}::timestamptz else r.delivered_at end,
                   error = case when v.kind = 'delivered' then null else v.detail end,
                   next_attempt_at = case when ${retry} then ${at}::timestamptz + make_interval(
                                       secs => ${scope.retryDelaySeconds} * power(2, greatest(0, r.attempts - 1))) end,
                   claim_epoch = case when ${retry} then null else r.claim_epoch end
              from unnest(${bigintArray(answers.map((a) => a.id))}::bigint[],
                          ${textArray(answers.map((a) => a.kind))}::text[],
                          ${textArray(answers.map((a) => a.detail))}::text[],
                          ${boolArray(answers.map((a) => a.afterData))}::boolean[]) as v(id, kind, detail, after_data)
             where r.id = v.id and r.claim_epoch = ${epoch}
               and r.status = case when v.after_data then 'handing' else 'sending' end
            returning r.id, r.status, r.contact_id, r.error, v.after_data`;
  const n = (condition: SQL) => sql`(select count(*) from answered where ${condition})`;
  const handedN = sql`(select count(*) from handed)`;
  const deliveredN = n(sql`status = 'delivered'`);
  const bouncedN = n(sql`status = 'bounced'`);
  const failedN = n(sql`status = 'failed'`);
  const deferredN = n(sql`status = 'deferred'`);
  const unconfirmedN = n(sql`status = 'unconfirmed'`);
  // A message refused for now after its data (retried later) or given up is no longer counted sent.
  const takenBackN = n(sql`after_data and status in ('deferred', 'failed')`);
  const [row] = await queryRows(
    db,
    sql`with handed as (${handed}),
          answered as (${answered}),
          bounced_contacts as (
            update contacts set status = 'bounced', updated_at = now()
             where tenant_id = ${tenantId}::uuid and status in ('subscribed', 'unsubscribed')
               and id in (select contact_id from answered where status = 'bounced' and contact_id is not null)
            returning 1),
          events as (
            insert into campaign_events (tenant_id, campaign_id, recipient_id, type, detail, at)
            select ${tenantId}::uuid, ${campaignId}::uuid, id, status, error, ${at}::timestamptz from answered
             where status in ('deferred', 'bounced', 'failed', 'unconfirmed')
            returning 1),
          usage as (${recordSentSql(tenantId, handedN, at)}),
          counted as (
            update campaigns set sent = sent + ${handedN} - ${takenBackN}, delivered = delivered + ${deliveredN},
                                 bounced = bounced + ${bouncedN}, failed = failed + ${failedN},
                                 unconfirmed = unconfirmed + ${unconfirmedN}
             where id = ${campaignId}::uuid and (exists (select 1 from handed) or exists (select 1 from answered))
            returning 1),
          outbox as (${
            withEvents
              ? outboxInsertSql(
                  tenantId,
                  at,
                  sql`select id, 'sent', null::text from handed
                      union all select id, status, error from answered where status in ('delivered', 'bounced')`,
                )
              : sql`select 1`
          }),
          carried as (${scope.carrier ? carrierHooks().committedSql(scope.carrier, { handed: handedN, bounced: bouncedN, failed: failedN }, at) : sql`select 1`}),
          sent_minutes as (${countEventsSql(campaignId, 'sent', at, handedN)}),
          delivered_minutes as (${countEventsSql(campaignId, 'delivered', at, deliveredN)}),
          bounced_minutes as (${countEventsSql(campaignId, 'bounced', at, bouncedN)}),
          deferred_minutes as (${countEventsSql(campaignId, 'deferred', at, deferredN)}),
          failed_minutes as (${countEventsSql(campaignId, 'failed', at, failedN)})
        select coalesce((select array_agg(id)::text from handed), '{}') as handed,
               (select count(*) from answered)::int as answered,
               (select count(*) from bounced_contacts)::int as contacts,
               (select count(*) from events)::int as events,
               (select count(*) from counted)::int as counted,
               (select count(*) from outbox)::int as outboxed`,
  );
  const ids = String(row?.handed ?? '{}')
    .replace(/[{}]/g, '')
    .split(',')
    .filter(Boolean)
    .map(Number);
  if (withEvents && intOf(row ?? {}, 'outboxed') > 0) deliveryEventsCommitted(db);
  return { handed: new Set(ids), dropped: answers.length - intOf(row ?? {}, 'answered') };
}
