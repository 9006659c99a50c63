/**
 * Trigger sources (docs/automations.md, "Triggers"): each reads what happened durably and enters the
 * contacts in the same transaction that records how far it read, so a stop anywhere loses nothing and
 * enters nobody twice:
 * - list joins and widget sign-ups: outbox rows written with the membership, deleted as they enter;
 * - contract events: a cursor over `contract_events.id` per automation;
 * - segment entry: the members seen at the last evaluation, diffed with the segment now;
 * - date attributes: per automation, the local day done and a cursor over the day's contacts.
 * Work is in bounded batches; an automation's row is locked (`skip locked`) while a source works on it,
 * so two workers never read the same range.
 */
import { sql } from 'drizzle-orm';
import { argsMatch, type SegmentGroup, type Trigger } from '../contracts';
import type { Deps } from '../deps';
import { queryRows, textOf, type Queryable, type Row } from '../lib/raw-sql';
import { segmentCondition, segmentContext } from '../audience/index';
import { enterContacts, runnableVersion, type Candidate, type EntryTarget } from './journeys';
import { addDays, localDay, localTime, minutesOf } from './zoned-time';

export const SOURCE_BATCH = 500;

interface ActiveAutomation extends EntryTarget {
  trigger: Trigger;
}

/** Active automations of one trigger type, with their active version's trigger. */
async function activeOf(db: Queryable, type: Trigger['type']): Promise<ActiveAutomation[]> {
  const rows = await queryRows(
    db,
    sql`select id::text, tenant_id::text, active_version from automations
         where trigger_type = ${type} and status = 'active' and active_version is not null`,
  );
  const out: ActiveAutomation[] = [];
  for (const r of rows) {
    const target = { automationId: String(r.id), tenantId: String(r.tenant_id), version: Number(r.active_version) };
    const v = await runnableVersion(db, target.automationId, target.version);
    const node = v.nodes.get(v.triggerId);
    if (node?.type === 'trigger') out.push({ ...target, trigger: node.data });
  }
  return out;
}

/** Locks an active automation's row for this transaction, or null when another worker holds it. */
async function lockAutomation(tx: Queryable, id: string): Promise<Row | null> {
  const [row] = await queryRows(
    tx,
    sql`select a.event_cursor::text as event_cursor, a.date_day, a.date_cursor::text as date_cursor, a.status, t.time_zone
          from automations a join tenants t on t.id = a.tenant_id
         where a.id = ${id}::uuid and a.status = 'active' for update of a skip locked`,
  );
  return row ?? null;
}

/** List joins and widget sign-ups: a batch of outbox rows of active automations, entered and deleted. */
export async function drainOutbox(deps: Deps, now: Date): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const rows = await queryRows(
      tx,
      sql`delete from automation_outbox o
           where o.id in (select x.id from automation_outbox x join automations a on a.id = x.automation_id
                           where a.status = 'active' order by x.id limit ${SOURCE_BATCH} for update of x skip locked)
          returning o.automation_id::text, o.contact_id::text, o.context`,
    );
    if (rows.length === 0) return 0;
    const byAutomation = new Map<string, Candidate[]>();
    for (const r of rows) {
      const context = typeof r.context === 'string' ? (JSON.parse(r.context) as Record<string, unknown>) : r.context;
      const list = byAutomation.get(String(r.automation_id)) ?? [];
      list.push({ contactId: String(r.contact_id), context: (context ?? {}) as Record<string, unknown> });
      byAutomation.set(String(r.automation_id), list);
    }
    for (const [automationId, candidates] of byAutomation) {
      const [a] = await queryRows(
        tx,
        sql`select tenant_id::text, active_version from automations where id = ${automationId}::uuid`,
      );
      if (!a) continue;
      await enterContacts(
        tx,
        { automationId, tenantId: String(a.tenant_id), version: Number(a.active_version) },
        candidates,
        now,
      );
    }
    return rows.length;
  });
}

/** Contract events after each automation's cursor: those meeting the trigger's conditions enter their contacts. */
export async function readContractEvents(deps: Deps, now: Date): Promise<number> {
  let read = 0;
  for (const a of await activeOf(deps.db, 'contract_event')) {
    const t = a.trigger;
    if (t.type !== 'contract_event') continue;
    read += await deps.db.transaction(async (tx) => {
      const lock = await lockAutomation(tx, a.automationId);
      if (!lock) return 0;
      const events = await queryRows(
        tx,
        sql`select e.id::text, e.event_name, e.args, e.wallets, e.tx_hash, e.block_number::text, e.block_time, e.log_index
              from contract_events e
             where e.contract_id = ${t.contract_id}::uuid and e.tenant_id = ${a.tenantId}::uuid
               and e.id > ${textOf(lock, 'event_cursor') ?? '0'}::bigint
             order by e.id limit ${SOURCE_BATCH}`,
      );
      if (events.length === 0) return 0;
      const candidates: Candidate[] = [];
      const walletsWanted = new Map<string, Record<string, unknown>[]>();
      for (const e of events) {
        if (e.event_name !== t.event) continue;
        const args = (typeof e.args === 'string' ? JSON.parse(e.args) : e.args) as Record<string, unknown>;
        if (!argsMatch(args, t.conditions)) continue;
        const event = {
          id: String(e.id),
          name: String(e.event_name),
          contract_id: t.contract_id,
          args,
          tx_hash: String(e.tx_hash),
          block_number: String(e.block_number),
          block_time: e.block_time instanceof Date ? e.block_time.toISOString() : String(e.block_time),
          log_index: Number(e.log_index),
        };
        const named =
          t.wallet_arg !== null ? [args[t.wallet_arg]] : Array.isArray(e.wallets) ? (e.wallets as unknown[]) : [];
        for (const w of named) {
          if (typeof w !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(w)) continue;
          const key = w.toLowerCase();
          walletsWanted.set(key, [...(walletsWanted.get(key) ?? []), { event }]);
        }
      }
      if (walletsWanted.size > 0) {
        const contacts = await queryRows(
          tx,
          sql`select id::text, lower(wallet) collate "C" as wallet from contacts
               where tenant_id = ${a.tenantId}::uuid
                 and lower(wallet) collate "C" = any(${`{${[...walletsWanted.keys()].join(',')}}`}::text[])`,
        );
        for (const c of contacts)
          for (const context of walletsWanted.get(String(c.wallet)) ?? [])
            candidates.push({ contactId: String(c.id), context });
      }
      // One entry per contact per call: a contact named by several events of one batch enters for the first.
      const byContact = new Map<string, Candidate[]>();
      for (const c of candidates) byContact.set(c.contactId, [...(byContact.get(c.contactId) ?? []), c]);
      for (let round = 0; byContact.size > 0; round++) {
        const batch: Candidate[] = [];
        for (const [contact, list] of byContact) {
          const next = list.shift();
          if (next) batch.push(next);
          if (list.length === 0) byContact.delete(contact);
        }
        await enterContacts(tx, a, batch, now);
      }
      await tx.execute(
        sql`update automations set event_cursor = ${String(events[events.length - 1]!.id)}::bigint
             where id = ${a.automationId}::uuid`,
      );
      return events.length;
    });
  }
  return read;
}

/** When each segment automation was last evaluated by this process (at most every SEGMENT_EVERY_MS). */
const segmentEvaluated = new Map<string, number>();
export const SEGMENT_EVERY_MS = 60_000;

/**
 * Segment entry: contacts matching the segment now and not among the members seen enter (and are seen);
 * seen members that no longer match are forgotten (so a later entry counts again, under the re-entry rule).
 */
export async function evaluateSegments(deps: Deps, now: Date, force = false): Promise<number> {
  let entered = 0;
  for (const a of await activeOf(deps.db, 'segment_entered')) {
    const t = a.trigger;
    if (t.type !== 'segment_entered') continue;
    const last = segmentEvaluated.get(a.automationId);
    if (!force && last !== undefined && now.getTime() - last < SEGMENT_EVERY_MS) continue;
    const [segment] = await queryRows(
      deps.db,
      sql`select rule from segments where id = ${t.segment_id}::uuid and tenant_id = ${a.tenantId}::uuid`,
    );
    if (!segment) continue;
    const rule = (typeof segment.rule === 'string' ? JSON.parse(segment.rule) : segment.rule) as SegmentGroup;
    const condition = segmentCondition(rule, await segmentContext(deps.db, a.tenantId, 'matchNobody'));
    for (;;) {
      const n = await deps.db.transaction(async (tx) => {
        if (!(await lockAutomation(tx, a.automationId))) return -1;
        await tx.execute(
          sql`delete from automation_segment_members m
               where m.automation_id = ${a.automationId}::uuid
                 and m.contact_id in (select s.contact_id from automation_segment_members s
                                       where s.automation_id = ${a.automationId}::uuid
                                         and not exists (select 1 from contacts where contacts.id = s.contact_id and ${condition})
                                       limit ${SOURCE_BATCH})`,
        );
        const joined = await queryRows(
          tx,
          sql`insert into automation_segment_members (automation_id, contact_id)
              select ${a.automationId}::uuid, contacts.id from contacts
               where contacts.tenant_id = ${a.tenantId}::uuid and ${condition}
                 and not exists (select 1 from automation_segment_members s
                                  where s.automation_id = ${a.automationId}::uuid and s.contact_id = contacts.id)
               limit ${SOURCE_BATCH}
              returning contact_id::text`,
        );
        await enterContacts(
          tx,
          a,
          joined.map((r) => ({ contactId: String(r.contact_id), context: { segment_id: t.segment_id } })),
          now,
        );
        return joined.length;
      });
      if (n < 0) break;
      entered += n;
      if (n < SOURCE_BATCH) break;
    }
    segmentEvaluated.set(a.automationId, now.getTime());
  }
  return entered;
}

/**
 * Date attributes: once the tenant's clock passes the trigger's time, the contacts whose date (month and
 * day, every year) is `offset_days` before today (after, for a negative offset) enter, in batches by
 * contact id; the day is then marked done. 29 February dates recur only in leap years.
 */
export async function enterDates(deps: Deps, now: Date): Promise<number> {
  let entered = 0;
  for (const a of await activeOf(deps.db, 'date_attribute')) {
    const t = a.trigger;
    if (t.type !== 'date_attribute') continue;
    for (;;) {
      const n = await deps.db.transaction(async (tx) => {
        const lock = await lockAutomation(tx, a.automationId);
        if (!lock) return -1;
        const zone = textOf(lock, 'time_zone') ?? 'UTC';
        const today = localDay(now, zone);
        const clock = localTime(now, zone);
        if (textOf(lock, 'date_day') === today || clock.hour * 60 + clock.minute < minutesOf(t.time)) return -1;
        const monthDay = addDays(today, -t.offset_days).slice(5);
        const after = textOf(lock, 'date_cursor') ?? '00000000-0000-0000-0000-000000000000';
        const rows = await queryRows(
          tx,
          sql`select c.id::text from contacts c join custom_attributes k on k.tenant_id = c.tenant_id and k.key = ${t.attribute}
               where c.tenant_id = ${a.tenantId}::uuid and c.id > ${after}::uuid
                 and substr(c.attributes ->> k.id::text, 6, 5) = ${monthDay}
               order by c.id limit ${SOURCE_BATCH}`,
        );
        await enterContacts(
          tx,
          a,
          rows.map((r) => ({ contactId: String(r.id), context: { date: today } })),
          now,
        );
        const done = rows.length < SOURCE_BATCH;
        await tx.execute(
          sql`update automations
                 set date_day = ${done ? today : textOf(lock, 'date_day')},
                     date_cursor = ${done ? null : String(rows[rows.length - 1]!.id)}::uuid
               where id = ${a.automationId}::uuid`,
        );
        return done ? -rows.length - 2 : rows.length;
      });
      if (n === -1) break;
      entered += n < 0 ? -n - 2 : n;
      if (n < 0) break;
    }
  }
  return entered;
}
