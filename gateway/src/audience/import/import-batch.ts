/**
 * One batch of an import, committed atomically: the contacts it creates and updates, its list
 * memberships, its failed rows and the job's new checkpoint, all in ONE statement (data-modifying
 * CTEs). Set-based: two statements per batch whatever its size (match, then write), the rows
 * travelling as one JSON parameter each (json_to_recordset); never a statement per row.
 *
 * Every write is conditional on the job row, locked, being still 'running' at the checkpoint the
 * batch starts from: a job cancelled meanwhile, or taken over by another runner after a stale
 * heartbeat, commits nothing.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { ImportMode } from '../../contracts';
import type { Database } from '../../db/index';
import { ROW_MESSAGES } from './import-rows';
import type { SeenValues } from './import-seen';
import type { CandidateRow, FailedRow, ImportBatch } from './import-source';
import { rawForReport } from './import-source';
import { intOf, json, queryRows, textOf, type Queryable } from '../../lib/raw-sql';
import { requireImportRoom } from '../contacts/contact-limit';

export interface BatchJob {
  id: string;
  tenantId: string;
  mode: ImportMode;
  listId: string | null;
}

export interface Checkpoint {
  rowsDone: number;
  byteOffset: number;
}

export interface BatchCounts {
  created: number;
  updated: number;
  skipped: number;
  failed: number;
}

/** Values already claimed by rows of the file (the source's). */
export interface ClaimedValues {
  emails: SeenValues;
  wallets: SeenValues;
}

export interface MatchedContact {
  id: string;
  email: string | null;
  wallet: string | null;
}

export interface Match {
  byEmail: MatchedContact | null;
  byWallet: MatchedContact | null;
}

function contactOf(row: Record<string, unknown>, prefix: 'e' | 'w'): MatchedContact | null {
  const id = textOf(row, `${prefix}_id`);
  return id ? { id, email: textOf(row, `${prefix}_email`), wallet: textOf(row, `${prefix}_wallet`) } : null;
}

/**
 * Existing contacts of the tenant with a candidate's e-mail or wallet: one probe of the e-mail or
 * wallet index per value (LATERAL, LIMIT 1: the unique indexes allow one). The tenant id is given
 * as a sub-select, a value the planner cannot look up in its statistics: a tenant that grew since
 * the last ANALYZE (a first large import) looks empty to it, and with the literal id it would join
 * by hashing every contact of the tenant, or probe any tenant_id index and filter its rows, once
 * per batch (quadratic over an import). Not knowing the value, it counts on an average tenant and
 * takes the index that covers both columns.
 */
export function matchQuery(tenantId: string, rows: readonly CandidateRow[]): SQL {
  const input = rows.map((r, i) => ({ i, e: r.values.email, w: r.values.wallet?.toLowerCase() ?? null }));
  return sql`select r.i,
      ce.id as e_id, ce.email as e_email, ce.wallet as e_wallet,
      cw.id as w_id, cw.email as w_email, cw.wallet as w_wallet
    from json_to_recordset(${json(input)}::json) as r(i int, e text, w text)
    left join lateral (
      select c.id, c.email, c.wallet from contacts c
      where r.e is not null and c.tenant_id = (select ${tenantId}::uuid) and lower(c.email) collate "C" = r.e
      limit 1
    ) ce on true
    left join lateral (
      select c.id, c.email, c.wallet from contacts c
      where r.w is not null and c.tenant_id = (select ${tenantId}::uuid) and lower(c.wallet) collate "C" = r.w
      limit 1
    ) cw on true
    where ce.id is not null or cw.id is not null`;
}

/** The matches of `rows` (by their index) among the tenant's contacts: see matchQuery. */
export async function matchContacts(
  db: Queryable,
  tenantId: string,
  rows: readonly CandidateRow[],
): Promise<Map<number, Match>> {
  const found = await queryRows(db, matchQuery(tenantId, rows));
  const matches = new Map<number, Match>();
  for (const row of found)
    matches.set(intOf(row, 'i'), { byEmail: contactOf(row, 'e'), byWallet: contactOf(row, 'w') });
  return matches;
}

/** An earlier row of the file that claimed this contact's e-mail or wallet (it already created or changed it), or 0. */
function earlierRowOf(contact: MatchedContact, line: number, claimed: ClaimedValues): number {
  const rows = [
    contact.email ? claimed.emails.rowOf(contact.email.toLowerCase()) : 0,
    contact.wallet ? claimed.wallets.rowOf(contact.wallet.toLowerCase()) : 0,
  ].filter((row) => row > 0 && row < line);
  return rows.length > 0 ? Math.min(...rows) : 0;
}

function byEmail(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

function valuesJson(row: CandidateRow, id?: string) {
  const v = row.values;
  return {
    ...(id !== undefined && { id }),
    e: v.email,
    w: v.wallet,
    f: v.firstName,
    l: v.lastName,
    s: v.status,
    a: v.attributes,
  };
}

function failureRows(failures: readonly FailedRow[]) {
  return failures.map((f) => ({ n: f.line, reason: f.reason, raw: f.raw }));
}

/**
 * Every write of a batch in ONE statement (data-modifying CTEs: atomic, one round trip), each
 * conditional on `fence`: the job row, locked, still 'running' at the checkpoint the batch starts
 * from. Returns whether the checkpoint moved (false: nothing was written).
 */
async function writeBatch(
  db: Queryable,
  job: BatchJob,
  from: Checkpoint,
  batch: ImportBatch,
  writes: {
    fresh: readonly CandidateRow[];
    existing: readonly { id: string; row: CandidateRow }[];
    failures: readonly FailedRow[];
  },
  counts: BatchCounts,
): Promise<boolean> {
  const update = job.mode === 'update' ? writes.existing : [];
  const rows = await queryRows(
    db,
    sql`with target_list as (
          -- Locked before the job row: a list deleted meanwhile (which cascades to the job row) waits
          -- for this batch, or this batch waits for it, never both (no deadlock).
          select id from lists where id = ${job.listId}::uuid for key share
        ),
        fence as (
          select id from import_jobs
          where id = ${job.id}::uuid and status = 'running' and rows_done = ${from.rowsDone} and byte_offset = ${from.byteOffset}
            and (select count(*) from target_list) >= 0
          for update
        ),
        created as (
          insert into contacts (tenant_id, email, wallet, first_name, last_name, status, source, attributes)
          select ${job.tenantId}::uuid, r.e, r.w, coalesce(r.f, ''), coalesce(r.l, ''), coalesce(r.s, 'subscribed'), 'import',
            coalesce(r.a, '{}'::jsonb)
          from json_to_recordset(${json(writes.fresh.map((r) => valuesJson(r)))}::json)
            as r(e text, w text, f text, l text, s text, a jsonb)
          where exists (select from fence)
          returning id
        ),
        created_members as (
          insert into list_members (list_id, contact_id)
          select ${job.listId}::uuid, id from created where ${job.listId}::uuid is not null
        ),
        updated as (
          update contacts c set
            email = coalesce(r.e, c.email),
            wallet = coalesce(r.w, c.wallet),
            first_name = coalesce(r.f, c.first_name),
            last_name = coalesce(r.l, c.last_name),
            status = coalesce(r.s, c.status),
            attributes = case when r.a is null then c.attributes else c.attributes || r.a end,
            updated_at = now()
          from json_to_recordset(${json(update.map((r) => valuesJson(r.row, r.id)))}::json)
            as r(id uuid, e text, w text, f text, l text, s text, a jsonb)
          where c.id = r.id and c.tenant_id = ${job.tenantId}::uuid and exists (select from fence)
            and (c.email is distinct from coalesce(r.e, c.email)
              or c.wallet is distinct from coalesce(r.w, c.wallet)
              or c.first_name <> coalesce(r.f, c.first_name)
              or c.last_name <> coalesce(r.l, c.last_name)
              or c.status <> coalesce(r.s, c.status)
              or (r.a is not null and not c.attributes @> r.a))
        ),
        existing_members as (
          insert into list_members (list_id, contact_id)
          select ${job.listId}::uuid, x::uuid from json_array_elements_text(${json(writes.existing.map((e) => e.id))}::json) as x
          where ${job.listId}::uuid is not null and exists (select from fence)
          on conflict do nothing
        ),
        failed as (
          insert into import_failures (job_id, row_number, reason, raw)
          select ${job.id}::uuid, r.n, r.reason, r.raw
          from json_to_recordset(${json(failureRows(writes.failures))}::json) as r(n int, reason text, raw text)
          where exists (select from fence)
        ),
        checkpoint as (
          update import_jobs j set
            rows_done = ${batch.rowsDone}, byte_offset = ${batch.byteOffset},
            created_count = created_count + ${counts.created}, updated_count = updated_count + ${counts.updated},
            skipped_count = skipped_count + ${counts.skipped}, failed_count = failed_count + ${counts.failed},
            heartbeat_at = now()
          from fence where j.id = fence.id
          returning j.id
        )
        select count(*)::int as n from checkpoint`,
  );
  return intOf(rows[0] ?? {}, 'n') === 1;
}

/**
 * Commits a batch read from checkpoint `from`: matches its rows to existing contacts (one query),
 * sorts them into new, existing and failed, and writes everything in one statement. Null when the job
 * is no longer this runner's to continue (cancelled, or resumed by another runner): nothing was written.
 *
 * The match is read before the write without a transaction: a contact created or deleted in between
 * by someone else makes the write fail (unique or foreign key violation), and the caller tries again.
 */
export async function commitBatch(
  db: Database,
  job: BatchJob,
  from: Checkpoint,
  batch: ImportBatch,
  claimed: ClaimedValues,
): Promise<BatchCounts | null> {
  const failures = [...batch.failures];
  const fresh: CandidateRow[] = [];
  const existing: { id: string; row: CandidateRow }[] = [];
  const matches =
    batch.candidates.length > 0 ? await matchContacts(db, job.tenantId, batch.candidates) : new Map<number, Match>();
  for (const [i, row] of batch.candidates.entries()) {
    const match = matches.get(i);
    const contact = match ? (match.byEmail ?? match.byWallet) : null;
    if (!match || !contact) {
      fresh.push(row);
      continue;
    }
    const fail = (reason: string) => failures.push({ line: row.line, reason, raw: rawForReport(row.raw) });
    if (match.byEmail && match.byWallet && match.byEmail.id !== match.byWallet.id) {
      fail(ROW_MESSAGES.conflict);
      continue;
    }
    const earlier = earlierRowOf(contact, row.line, claimed);
    if (earlier > 0) fail(ROW_MESSAGES.sameContact(earlier));
    else existing.push({ id: contact.id, row });
  }
  const counts: BatchCounts = {
    created: fresh.length,
    updated: job.mode === 'update' ? existing.length : 0,
    skipped: job.mode === 'skip' ? existing.length : 0,
    failed: failures.length,
  };
  if (fresh.length > 0) await requireImportRoom(db, job.tenantId, fresh.length);
  // New contacts go in in e-mail order (stored lower-cased; `collate "C"` is code-unit order): the two
  // e-mail indexes then take the batch page by page instead of at random (about a tenth less write time).
  fresh.sort((a, b) => byEmail(a.values.email, b.values.email));
  const written = await writeBatch(db, job, from, batch, { fresh, existing, failures }, counts);
  return written ? counts : null;
}
