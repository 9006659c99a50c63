/**
 * Claims (docs/sending.md, "States"): a run takes recipients into 'sending' under its lease, only
 * while its lease is held (a run whose lease was taken over claims nothing), `FOR UPDATE SKIP LOCKED`
 * so two runs never claim one row:
 * - straight from the audience's compact parts (campaigns/audience.ts): the rows are inserted already
 *   claimed, one row version per recipient fewer than inserting them queued and claiming them after;
 * - rows 'queued' (given back by a lease that ended) or 'deferred' whose retry is due.
 * Rows claimed and never handed over go back to the queue when the lease ends (lease.ts).
 */
import { sql } from 'drizzle-orm';
import { intOf, queryRows, textOf, type Queryable, type Row } from '../../lib/raw-sql';
import { yieldToRequests } from '../../db/storage';
import type { Database } from '../../db/index';
import { expandPart, expansionSql } from '../audience';
import { leaseHeld } from './lease';

/** A claimed recipient with its contact as it is now (null: the contact was deleted). */
export interface Claimed {
  id: number;
  contactId: string | null;
  address: string;
  channel: string;
  /** This attempt's number (1 for the first). */
  attempts: number;
  contact: {
    email: string | null;
    wallet: string | null;
    first_name: string;
    last_name: string;
    attributes: Record<string, unknown>;
    status: string;
  } | null;
  /** A transactional message's merge data (carrier.ts); campaigns' rows have none. */
  data?: Record<string, unknown>;
}

/** Who claims: the run's lease (its epoch) and the worker's name (kept on the row for diagnostics). */
export interface Claimant {
  epoch: number;
  worker: string;
}

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

/** The rows of a `claimed` CTE (id, contact_id, address, channel, attempts) with their contacts, in id order. */
const withContacts = sql`select claimed.*, c.email, c.wallet, c.first_name, c.last_name, c.attributes,
                                c.status as contact_status
                           from claimed left join contacts c on c.id = claimed.contact_id`;

/**
 * Claims the next `n` recipients of the campaign's next waiting part of the audience, inserted under
 * the lease. `part` is false when no part was waiting (or the lease is not held).
 */
export async function claimFromParts(
  db: Queryable,
  who: Claimant,
  campaign: { id: string; tenantId: string },
  n: number,
): Promise<{ part: boolean; rows: Claimed[] }> {
  const into = { epoch: who.epoch, worker: who.worker, held: leaseHeld(who.epoch) };
  const rows = await queryRows(
    db,
    sql`${expansionSql(campaign.id, campaign.tenantId, into, n)},
        claimed as (select * from ins),
        taken as (${withContacts})
        select taken.*, (select count(*) from marked)::int as parts
          from (select 1) one left join taken on true
         order by taken.id`,
  );
  return {
    part: rows.length > 0 && intOf(rows[0]!, 'parts') > 0,
    rows: rows.filter((r) => r.id !== null && r.id !== undefined).map(claimedOf),
  };
}

/** Claims up to `n` rows of the campaign, queued ones or deferred ones whose retry is due, in id order. */
export async function claim(
  db: Queryable,
  who: Claimant,
  campaignId: string,
  n: number,
  which: 'queued' | 'deferred',
): Promise<Claimed[]> {
  const condition = which === 'queued' ? sql`status = 'queued'` : sql`status = 'deferred' and next_attempt_at <= now()`;
  const rows = await queryRows(
    db,
    sql`with claimed as (
          update campaign_recipients r
             set status = 'sending', claim_epoch = ${who.epoch}, claimed_by = ${who.worker}, claimed_at = now(),
                 attempts = r.attempts + 1, next_attempt_at = null
           where r.id in (select id from campaign_recipients
                           where campaign_id = ${campaignId}::uuid and ${condition}
                           order by id limit ${n} for update skip locked)
             and ${leaseHeld(who.epoch)}
          returning r.id, r.contact_id, r.address, r.channel, r.attempts)
        ${withContacts}
         order by claimed.id`,
  );
  return rows.map(claimedOf);
}

/** Rows turned 'skipped' per statement when a campaign is cancelled. */
const SKIP_SLICE = 5_000;

/**
 * Cancelled: the rows still waiting become 'skipped', a slice per statement, and so do the parts of
 * the audience not yet taken into rows (the delivery log lists every recipient of the snapshot).
 */
export async function skipRemaining(db: Database, campaign: { id: string; tenantId: string }): Promise<void> {
  const campaignId = campaign.id;
  while (await expandPart(db, campaignId, campaign.tenantId, 'skipped')) await yieldToRequests();
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
    await yieldToRequests();
  }
}
