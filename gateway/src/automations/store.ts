/**
 * Automations and their versions (docs/automations.md, "Versions"): a draft is edited in place; an
 * activated version never changes, so editing an active (or paused) automation opens a new version, the
 * draft, while contacts inside go on through theirs. Activation validates the draft (validate.ts) and
 * makes it the version new contacts enter.
 */
import { sql } from 'drizzle-orm';
import {
  AUTOMATION_MESSAGES as M,
  parseAbi,
  type Automation,
  type AutomationDetail,
  type AutomationInput,
  type AutomationListQuery,
  type AutomationPage,
  type AutomationPatch,
  type AttributeType,
  type JourneyGraph,
  type JourneyProblem,
  type Reentry,
  type Trigger,
  type TriggerType,
} from '../contracts';
import { tenantSegmentContracts } from '../audience/index';
import type { Database } from '../db/index';
import { badRequest, notFound } from '../errors';
import { isUuid } from '../lib/db-helpers';
import { likePattern, paginate, pageWindow } from '../lib/pagination';
import { queryRows, textOf, type Queryable, type Row } from '../lib/raw-sql';
import { validateJourney, type JourneyContext } from './validate';

const iso = (v: unknown) => (v instanceof Date ? v : new Date(String(v))).toISOString();

/** The trigger of a graph (its first trigger node), or null. */
export function triggerOf(graph: JourneyGraph): { id: string; data: Trigger } | null {
  const node = graph.nodes.find((n) => n.type === 'trigger');
  return node?.type === 'trigger' ? { id: node.id, data: node.data } : null;
}

/** What the trigger sources look an active automation up by: the list, segment, widget or contract. */
export function triggerKey(trigger: Trigger): string | null {
  switch (trigger.type) {
    case 'list_joined':
      return trigger.list_id;
    case 'segment_entered':
      return trigger.segment_id;
    case 'widget_signup':
      return trigger.widget_id;
    case 'contract_event':
      return trigger.contract_id;
    case 'date_attribute':
    case 'api_call':
      return null;
  }
}

function toAutomation(r: Row): Automation {
  return {
    _id: String(r.id),
    name: String(r.name),
    trigger: (textOf(r, 'draft_trigger') as TriggerType | null) ?? null,
    status: String(r.status) as Automation['status'],
    active_version: r.active_version === null || r.active_version === undefined ? null : Number(r.active_version),
    entered: Number(r.entered),
    completed: Number(r.completed),
    emails_sent: Number(r.emails_sent),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

const COLUMNS = sql.raw(
  'a.id::text, a.name, a.status, a.version, a.active_version, a.draft_trigger, k.entered, k.completed, k.emails_sent, a.created_at, a.updated_at',
);
/** The grid's counters: the sum of the automation's shards (automation_counters). */
const COUNTERS = sql.raw(
  `left join lateral (select coalesce(sum(x.entered), 0)::int as entered, coalesce(sum(x.completed), 0)::int as completed,
                             coalesce(sum(x.emails_sent), 0)::int as emails_sent
                        from automation_counters x where x.automation_id = a.id) k on true`,
);

const SORT: Record<AutomationListQuery['sortField'], string> = {
  created_at: 'a.created_at',
  updated_at: 'a.updated_at',
  name: 'lower(a.name)',
  status: 'a.status',
  entered: 'k.entered',
};

/** GET /v1/automations: the grid (spec section 3's list behaviour: search on the name, sort, pages). */
export async function listAutomations(db: Database, tenantId: string, q: AutomationListQuery): Promise<AutomationPage> {
  const search = q.searchString.trim();
  const where = search
    ? sql`a.tenant_id = ${tenantId}::uuid and a.name ilike ${likePattern(search)}`
    : sql`a.tenant_id = ${tenantId}::uuid`;
  const direction = sql.raw(q.sortOrder === 'asc' ? 'asc' : 'desc');
  const { offset, limit } = pageWindow(q.page, q.perPage);
  const [total, rows] = await Promise.all([
    queryRows(db, sql`select count(*)::int as n from automations a where ${where}`),
    queryRows(
      db,
      sql`select ${COLUMNS} from automations a ${COUNTERS} where ${where}
           order by ${sql.raw(SORT[q.sortField])} ${direction}, a.id ${direction} limit ${limit} offset ${offset}`,
    ),
  ]);
  return { records: rows.map(toAutomation), pagination: paginate(q.page, q.perPage, Number(total[0]?.n ?? 0)) };
}

/** The tenant's automation row, or a 404 (other tenants' ids and malformed ids alike). */
async function automationRow(db: Queryable, tenantId: string, id: string, lock = false): Promise<Row> {
  if (!isUuid(id)) throw notFound(M.notFound);
  const [row] = await queryRows(
    db,
    sql`select ${COLUMNS} from automations a ${COUNTERS} where a.id = ${id}::uuid and a.tenant_id = ${tenantId}::uuid
        ${lock ? sql`for update of a` : sql``}`,
  );
  if (!row) throw notFound(M.notFound);
  return row;
}

async function versionOf(db: Queryable, id: string, version: number) {
  const [v] = await queryRows(
    db,
    sql`select graph, reentry, activated_at from automation_versions where automation_id = ${id}::uuid and version = ${version}`,
  );
  if (!v) throw new Error(`automation ${id} has no version ${version}`);
  const parse = <T>(x: unknown): T => (typeof x === 'string' ? (JSON.parse(x) as T) : (x as T));
  return {
    graph: parse<JourneyGraph>(v.graph),
    reentry: parse<Reentry>(v.reentry),
    activated: v.activated_at !== null && v.activated_at !== undefined,
  };
}

/** What a graph may refer to, read for the ids it names (validate.ts). */
export async function journeyContext(db: Queryable, tenantId: string, graph: JourneyGraph): Promise<JourneyContext> {
  const ids = {
    templates: new Set<string>(),
    lists: new Set<string>(),
    segments: new Set<string>(),
    widgets: new Set<string>(),
  };
  let contractId: string | null = null;
  for (const node of graph.nodes) {
    if (node.type === 'send_email') ids.templates.add(node.data.template_id);
    if (node.type === 'update_contact' && node.data.action !== 'set_attribute') ids.lists.add(node.data.list_id);
    if (node.type === 'trigger') {
      const t = node.data;
      if (t.type === 'list_joined') ids.lists.add(t.list_id);
      if (t.type === 'segment_entered') ids.segments.add(t.segment_id);
      if (t.type === 'widget_signup' && t.widget_id) ids.widgets.add(t.widget_id);
      if (t.type === 'contract_event') contractId = t.contract_id;
    }
  }
  const uuids = (s: Set<string>) => `{${[...s].filter(isUuid).join(',')}}`;
  const found = async (table: string, s: Set<string>) =>
    new Set(
      (
        await queryRows(
          db,
          sql`select id::text from ${sql.raw(table)} where tenant_id = ${tenantId}::uuid and id = any(${uuids(s)}::uuid[])`,
        )
      ).map((r) => String(r.id)),
    );
  const [templates, lists, segments, widgets, attributeRows, segmentContracts] = await Promise.all([
    found('templates', ids.templates),
    found('lists', ids.lists),
    found('segments', ids.segments),
    found('widgets', ids.widgets),
    queryRows(db, sql`select key, name, type from custom_attributes where tenant_id = ${tenantId}::uuid`),
    tenantSegmentContracts(db, tenantId),
  ]);
  const attributes = new Map(
    attributeRows.map((r) => [String(r.key), { name: String(r.name), type: String(r.type) as AttributeType }]),
  );
  const contracts = new Map<string, Map<string, string[]>>();
  if (contractId && isUuid(contractId)) {
    const [c] = await queryRows(
      db,
      sql`select id::text, abi, events from watched_contracts where id = ${contractId}::uuid and tenant_id = ${tenantId}::uuid`,
    );
    if (c) {
      const abi = typeof c.abi === 'string' ? c.abi : JSON.stringify(c.abi);
      const watched = new Set((Array.isArray(c.events) ? c.events : []).map(String));
      const events = new Map<string, string[]>();
      for (const e of parseAbi(abi).events ?? [])
        if (watched.has(e.signature))
          events.set(
            e.name,
            e.inputs.map((i) => i.name),
          );
      contracts.set(String(c.id), events);
    }
  }
  return { templates, lists, segments, widgets, attributes, contracts, segmentContracts };
}

/** The problems of a graph for a tenant. */
export async function problemsOf(db: Queryable, tenantId: string, graph: JourneyGraph): Promise<JourneyProblem[]> {
  return validateJourney(graph, await journeyContext(db, tenantId, graph));
}

export async function getAutomation(db: Database, tenantId: string, id: string): Promise<AutomationDetail> {
  const row = await automationRow(db, tenantId, id);
  const version = Number(row.version);
  const v = await versionOf(db, id, version);
  return {
    ...toAutomation(row),
    version,
    graph: v.graph,
    reentry: v.reentry,
    problems: await problemsOf(db, tenantId, v.graph),
  };
}

export async function createAutomation(db: Database, tenantId: string, input: AutomationInput): Promise<string> {
  const graph = input.graph ?? { nodes: [], edges: [] };
  const reentry = input.reentry ?? { mode: 'once' };
  const [row] = await queryRows(
    db,
    sql`with made as (
          insert into automations (tenant_id, name, draft_trigger)
          values (${tenantId}::uuid, ${input.name}, ${triggerOf(graph)?.data.type ?? null})
          returning id)
        insert into automation_versions (automation_id, version, graph, reentry)
        select id, 1, ${JSON.stringify(graph)}::jsonb, ${JSON.stringify(reentry)}::jsonb from made
        returning automation_id::text as id`,
  );
  return String(row?.id);
}

/**
 * PATCH: the name, and the draft's graph and re-entry rule. When the latest version was activated, the
 * edit opens version n + 1 (a copy of it with the changes); the active version is untouched.
 */
export async function updateAutomation(db: Database, tenantId: string, id: string, patch: AutomationPatch) {
  await db.transaction(async (tx) => {
    const row = await automationRow(tx, tenantId, id, true);
    let version = Number(row.version);
    if (patch.graph || patch.reentry) {
      const current = await versionOf(tx, id, version);
      const graph = patch.graph ?? current.graph;
      const reentry = patch.reentry ?? current.reentry;
      if (current.activated) {
        version += 1;
        await tx.execute(
          sql`insert into automation_versions (automation_id, version, graph, reentry)
              values (${id}::uuid, ${version}, ${JSON.stringify(graph)}::jsonb, ${JSON.stringify(reentry)}::jsonb)`,
        );
      } else {
        await tx.execute(
          sql`update automation_versions set graph = ${JSON.stringify(graph)}::jsonb, reentry = ${JSON.stringify(reentry)}::jsonb
               where automation_id = ${id}::uuid and version = ${version}`,
        );
      }
      await tx.execute(
        sql`update automations set version = ${version}, draft_trigger = ${triggerOf(graph)?.data.type ?? null}
             where id = ${id}::uuid`,
      );
    }
    await tx.execute(
      sql`update automations set name = coalesce(${patch.name ?? null}, name), updated_at = now() where id = ${id}::uuid`,
    );
  });
}

/**
 * Activates the latest version: refused with its problems when it cannot run; otherwise it becomes
 * immutable and the one new contacts enter, and the automation is active. Activating a version already
 * active only resumes.
 */
export async function activateAutomation(
  db: Database,
  tenantId: string,
  id: string,
): Promise<{ ok: true } | { ok: false; problems: JourneyProblem[] }> {
  return db.transaction(async (tx) => {
    const row = await automationRow(tx, tenantId, id, true);
    const version = Number(row.version);
    const v = await versionOf(tx, id, version);
    const problems = await problemsOf(tx, tenantId, v.graph);
    if (problems.length > 0) return { ok: false as const, problems };
    const trigger = triggerOf(v.graph);
    if (!trigger) return { ok: false as const, problems: [{ node_id: null, message: M.noTrigger }] };
    await tx.execute(
      sql`update automation_versions set activated_at = coalesce(activated_at, now())
           where automation_id = ${id}::uuid and version = ${version}`,
    );
    // A contract trigger starts at the events to come; a new trigger type starts its sources afresh.
    await tx.execute(
      sql`update automations a
             set status = 'active', active_version = ${version}, trigger_type = ${trigger.data.type},
                 trigger_key = ${triggerKey(trigger.data)}, updated_at = now(),
                 event_cursor = case when a.trigger_type is distinct from ${trigger.data.type}
                                       or a.trigger_key is distinct from ${triggerKey(trigger.data)}
                                     then coalesce((select max(e.id) from contract_events e
                                                     where e.contract_id::text = ${triggerKey(trigger.data)}), 0)
                                     else a.event_cursor end
           where a.id = ${id}::uuid`,
    );
    return { ok: true as const };
  });
}

/** Pause (journeys keep their state and advance no further) and resume (they go on from where they are). */
export async function setPaused(db: Database, tenantId: string, id: string, paused: boolean): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await automationRow(tx, tenantId, id, true);
    if (row.active_version === null || row.active_version === undefined) throw badRequest(M.notActive);
    await tx.execute(
      sql`update automations set status = ${paused ? 'paused' : 'active'}, updated_at = now() where id = ${id}::uuid`,
    );
  });
}

export async function deleteAutomation(db: Database, tenantId: string, id: string): Promise<void> {
  await automationRow(db, tenantId, id);
  await db.execute(sql`delete from automations where id = ${id}::uuid and tenant_id = ${tenantId}::uuid`);
}

export { automationRow, toAutomation };
