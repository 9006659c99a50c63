/**
 * The automation log: an automation's journeys, newest first, each with its contact, version, state,
 * current step and the steps it took (at most one page of journeys, and their step lines, per request).
 */
import { sql } from 'drizzle-orm';
import type { Journey, JourneyListQuery, JourneyPage, JourneyState } from '../contracts';
import type { Database } from '../db/index';
import { likePattern, paginate, pageWindow } from '../lib/pagination';
import { queryRows, textOf } from '../lib/raw-sql';
import { automationRow } from './store';

const iso = (v: unknown) => (v instanceof Date ? v : new Date(String(v))).toISOString();

export async function listJourneys(
  db: Database,
  tenantId: string,
  automationId: string,
  q: JourneyListQuery,
): Promise<JourneyPage> {
  await automationRow(db, tenantId, automationId);
  const search = q.searchString.trim();
  const where = search
    ? sql`j.automation_id = ${automationId}::uuid and (c.email ilike ${likePattern(search)} or c.wallet ilike ${likePattern(search)})`
    : sql`j.automation_id = ${automationId}::uuid`;
  const direction = sql.raw(q.sortOrder === 'asc' ? 'asc' : 'desc');
  const { offset, limit } = pageWindow(q.page, q.perPage);
  const [total, rows] = await Promise.all([
    queryRows(
      db,
      sql`select count(*)::int as n from automation_journeys j left join contacts c on c.id = j.contact_id where ${where}`,
    ),
    queryRows(
      db,
      sql`select j.id, j.version, j.occurrence, j.state, j.node_id, j.due_at, j.entered_at,
                 c.id::text as contact_id, c.email, c.wallet
            from automation_journeys j left join contacts c on c.id = j.contact_id
           where ${where}
           order by j.entered_at ${direction}, j.id ${direction} limit ${limit} offset ${offset}`,
    ),
  ]);
  const ids = rows.map((r) => Number(r.id));
  const steps = ids.length
    ? await queryRows(
        db,
        sql`select journey_id, node_id, type, outcome, at from automation_steps
             where journey_id = any(${`{${ids.join(',')}}`}::bigint[]) order by journey_id, id`,
      )
    : [];
  const byJourney = new Map<number, Journey['steps']>();
  for (const s of steps) {
    const list = byJourney.get(Number(s.journey_id)) ?? [];
    list.push({ node_id: String(s.node_id), type: String(s.type), outcome: String(s.outcome), at: iso(s.at) });
    byJourney.set(Number(s.journey_id), list);
  }
  return {
    records: rows.map((r) => ({
      _id: String(r.id),
      contact: { _id: textOf(r, 'contact_id'), email: textOf(r, 'email'), wallet: textOf(r, 'wallet') },
      version: Number(r.version),
      occurrence: Number(r.occurrence),
      state: String(r.state) as JourneyState,
      current_step: String(r.node_id),
      due_at: r.due_at === null || r.due_at === undefined ? null : iso(r.due_at),
      entered_at: iso(r.entered_at),
      steps: byJourney.get(Number(r.id)) ?? [],
    })),
    pagination: paginate(q.page, q.perPage, Number(total[0]?.n ?? 0)),
  };
}
