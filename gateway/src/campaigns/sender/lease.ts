/**
 * Send leases: how a sending process holds a campaign's claimed rows, and how another takes them over
 * when it dies or freezes (docs/sending.md, "Leases and takeover").
 *
 * - A run opens a lease (`campaign_send_leases`); its id is the epoch every row it claims carries
 *   (`claim_epoch`). It renews the lease every `renewMs`; a lease not renewed for `leaseSeconds`
 *   expires.
 * - Revoking an expired lease is one statement, settling its rows another: between them every
 *   statement that checked the lease (`leaseHeld`, taken FOR SHARE) has committed, so the settling
 *   statement sees every row the old holder wrote. Its 'sending' rows (claimed, nothing handed over)
 *   go back to the queue; its 'handing' rows (committed just before the end of their data, no answer
 *   recorded) become 'unconfirmed'. A revoked lease is deleted with that settling, so a crash between
 *   the two statements leaves it for the next sweep.
 * - Every worker process sweeps every `renewMs`: takeover comes at most a lease and a sweep after the
 *   holder's last renewal. The campaigns whose leases it took over are queued again.
 * - A run ends its own lease the same way (its unsent claims go back to the queue).
 */
import { sql, type SQL } from 'drizzle-orm';
import { intOf, queryRows, textOf, type Queryable } from '../../lib/raw-sql';

/** The note on a row a takeover found handed over without an answer. */
export const TAKEN_OVER =
  'The sending process stopped after handing the message over and before the answer was recorded: it may not have arrived.';

/** The timing of leases (config.campaigns.leaseSeconds; renewals and sweeps four times a lease). */
export interface LeaseTiming {
  leaseSeconds: number;
}

export function renewMs(timing: LeaseTiming): number {
  return Math.max(250, (timing.leaseSeconds * 1000) / 4);
}

/**
 * The condition a statement of the holder puts on its writes: the lease is neither revoked nor expired,
 * read FOR SHARE so that a revocation waits for the statement's commit.
 */
export function leaseHeld(epoch: number): SQL {
  return sql`exists (select 1 from campaign_send_leases l
                      where l.id = ${epoch} and not l.revoked and l.expires_at > now() for share)`;
}

/** A new lease of `campaignId` for `worker`: its epoch. */
export async function openLease(db: Queryable, campaignId: string, worker: string, timing: LeaseTiming) {
  const [row] = await queryRows(
    db,
    sql`insert into campaign_send_leases (campaign_id, worker, expires_at)
        values (${campaignId}::uuid, ${worker}, now() + make_interval(secs => ${timing.leaseSeconds}))
        returning id`,
  );
  return intOf(row ?? {}, 'id');
}

/** Leases of the campaign held now (neither revoked nor expired): all of them, and those opened before `epoch`. */
export async function liveLeases(db: Queryable, campaignId: string, epoch: number) {
  const [row] = await queryRows(
    db,
    sql`select count(*)::int as n, count(*) filter (where id < ${epoch})::int as older from campaign_send_leases
         where campaign_id = ${campaignId}::uuid and not revoked and expires_at > now()`,
  );
  return { all: intOf(row ?? {}, 'n'), older: intOf(row ?? {}, 'older') };
}

/** Renews the lease; false once it was revoked (taken over): the run stops and writes nothing more. */
export async function renewLease(db: Queryable, epoch: number, timing: LeaseTiming): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`update campaign_send_leases set expires_at = now() + make_interval(secs => ${timing.leaseSeconds})
         where id = ${epoch} and not revoked returning 1`,
  );
  return rows.length > 0;
}

/** Revokes leases (expired ones, or one by its epoch): after this no statement of their holders writes. */
async function revoke(db: Queryable, which: SQL): Promise<void> {
  await db.execute(sql`update campaign_send_leases set revoked = true where not revoked and ${which}`);
}

/**
 * Settles the rows of every revoked lease and deletes those leases (one statement): 'sending' rows go
 * back to the queue (their attempt did not happen), 'handing' rows become 'unconfirmed' with
 * {@link TAKEN_OVER}, counted in the campaign's `unconfirmed` and recorded as an event. Returns the
 * campaigns of the leases settled.
 */
async function settleRevoked(db: Queryable, which: SQL): Promise<{ campaignId: string; unconfirmed: number }[]> {
  const rows = await queryRows(
    db,
    sql`with gone as (
          delete from campaign_send_leases where revoked and ${which} returning id, campaign_id),
        requeued as (
          update campaign_recipients r
             set status = 'queued', claim_epoch = null, claimed_by = null, claimed_at = null,
                 attempts = greatest(0, r.attempts - 1)
            from gone
           where r.campaign_id = gone.campaign_id and r.status = 'sending' and r.claim_epoch = gone.id
          returning r.id),
        lost as (
          update campaign_recipients r set status = 'unconfirmed', error = ${TAKEN_OVER}
            from gone
           where r.campaign_id = gone.campaign_id and r.status = 'handing' and r.claim_epoch = gone.id
          returning r.id, r.campaign_id, r.tenant_id),
        events as (
          insert into campaign_events (tenant_id, campaign_id, recipient_id, type, detail)
          select tenant_id, campaign_id, id, 'unconfirmed', ${TAKEN_OVER} from lost
          returning 1),
        per_campaign as (select campaign_id, count(*)::int as n from lost group by 1),
        counted as (
          update campaigns c set unconfirmed = c.unconfirmed + p.n from per_campaign p where c.id = p.campaign_id
          returning 1)
        select g.campaign_id::text as campaign_id, coalesce(max(p.n), 0)::int as unconfirmed,
               (select count(*) from requeued)::int as requeued, (select count(*) from events)::int as events,
               (select count(*) from counted)::int as counted
          from gone g left join per_campaign p on p.campaign_id = g.campaign_id
         group by g.campaign_id`,
  );
  return rows.map((r) => ({ campaignId: textOf(r, 'campaign_id') ?? '', unconfirmed: intOf(r, 'unconfirmed') }));
}

/** Ends a run's own lease: its rows settled as a takeover would. */
export async function endLease(db: Queryable, epoch: number): Promise<void> {
  await revoke(db, sql`id = ${epoch}`);
  await settleRevoked(db, sql`id = ${epoch}`);
}

/**
 * Takes over the leases that expired (their holders died or froze): returns the campaigns they held,
 * with how many messages each left unconfirmed.
 */
export async function takeOverExpired(db: Queryable): Promise<{ campaignId: string; unconfirmed: number }[]> {
  await revoke(db, sql`expires_at < now()`);
  return settleRevoked(db, sql`true`);
}
