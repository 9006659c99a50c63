/**
 * Journeys (docs/automations.md, "Runtime"): contacts enter an automation's active version under its
 * re-entry rule, and each step is applied with the journey advanced in ONE transaction, fenced by the
 * generation the runner's claim gave it. A step that sends an e-mail writes the message (a queued row
 * of a transactional carrier with its merge data: transactional/accept.ts `writeMessages`) in that same
 * transaction, so the message exists exactly when the journey has passed the step: once per (version,
 * contact, step, occurrence), whatever stops when.
 */
import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { argsMatch, type JourneyEdge, type JourneyGraph, type JourneyNode, type Reentry } from '../contracts';
import type { Deps } from '../deps';
import type { Database } from '../db/index';
import { queryRows, textOf, type Queryable, type Row } from '../lib/raw-sql';
import { isUuid } from '../lib/db-helpers';
import { segmentCondition, segmentContext } from '../audience/index';
import { enqueueCarrier } from '../campaigns/index';
import { carrierOf, DEFAULT_SETTINGS, recipientOf, writeMessages } from '../transactional/index';
import { nextWeekdayTime } from './zoned-time';

// ---------------------------------------------------------------------------------------------
// Versions (immutable once activated: read once per process)
// ---------------------------------------------------------------------------------------------

export interface RunnableVersion {
  graph: JourneyGraph;
  reentry: Reentry;
  nodes: Map<string, JourneyNode>;
  /** Outgoing edges by source node. */
  next: Map<string, JourneyEdge[]>;
  triggerId: string;
}

const versions = new Map<string, RunnableVersion>();
const VERSIONS_KEPT = 2_000;

export async function runnableVersion(db: Queryable, automationId: string, version: number): Promise<RunnableVersion> {
  const key = `${automationId}:${version}`;
  const hit = versions.get(key);
  if (hit) return hit;
  const [row] = await queryRows(
    db,
    sql`select graph, reentry, activated_at from automation_versions
         where automation_id = ${automationId}::uuid and version = ${version}`,
  );
  if (!row) throw new Error(`automation ${automationId} has no version ${version}`);
  const parse = <T>(x: unknown): T => (typeof x === 'string' ? (JSON.parse(x) as T) : (x as T));
  const graph = parse<JourneyGraph>(row.graph);
  const nodes = new Map(graph.nodes.map((n) => [n.id, n]));
  const next = new Map<string, JourneyEdge[]>();
  for (const e of graph.edges) next.set(e.source, [...(next.get(e.source) ?? []), e]);
  const trigger = graph.nodes.find((n) => n.type === 'trigger');
  const runnable = { graph, reentry: parse<Reentry>(row.reentry), nodes, next, triggerId: trigger?.id ?? '' };
  // Only activated versions are kept: a draft may still change.
  if (row.activated_at !== null && row.activated_at !== undefined) {
    if (versions.size >= VERSIONS_KEPT) versions.clear();
    versions.set(key, runnable);
  }
  return runnable;
}

// ---------------------------------------------------------------------------------------------
// Entering
// ---------------------------------------------------------------------------------------------

/** Shards of an automation's counters (schema.ts `automationCounters`). */
const COUNTER_SHARDS = 16;

export interface Candidate {
  contactId: string;
  /** The trigger's context (`event`, `data`), kept on the journey for merges and conditions. */
  context: Record<string, unknown>;
}

export interface EntryTarget {
  automationId: string;
  tenantId: string;
  version: number;
}

/** The re-entry rule as the condition of the entry's upsert (on `automation_entries`). */
function reentryCondition(reentry: Reentry) {
  switch (reentry.mode) {
    case 'once':
      return sql`false`;
    case 'every_time':
      return sql`true`;
    case 'once_per_days':
      return sql`automation_entries.last_entered_at <= excluded.last_entered_at - make_interval(days => ${reentry.days})`;
  }
}

/**
 * Enters candidates (contacts of the tenant; one entry per contact per call) into the active version,
 * inside the caller's transaction: the re-entry rule is one upsert, so concurrent triggers cannot enter
 * a contact twice against it. Returns the journeys made, by contact.
 */
export async function enterContacts(
  tx: Queryable,
  target: EntryTarget,
  candidates: readonly Candidate[],
  now: Date,
): Promise<Map<string, number>> {
  const made = new Map<string, number>();
  const valid = candidates.filter((c) => isUuid(c.contactId));
  if (valid.length === 0) return made;
  const v = await runnableVersion(tx, target.automationId, target.version);
  const input = JSON.stringify(valid.map((c, ord) => ({ contact: c.contactId, context: c.context, ord })));
  const rows = await queryRows(
    tx,
    sql`with input as (
          select distinct on (u.contact) u.contact, u.context
            from jsonb_to_recordset(${input}::jsonb) as u(contact uuid, context jsonb, ord int)
            join contacts c on c.id = u.contact and c.tenant_id = ${target.tenantId}::uuid
           order by u.contact, u.ord),
        entered as (
          insert into automation_entries (automation_id, contact_id, occurrences, last_entered_at)
          select ${target.automationId}::uuid, contact, 1, ${now.toISOString()}::timestamptz from input
          on conflict (automation_id, contact_id) do update
             set occurrences = automation_entries.occurrences + 1, last_entered_at = excluded.last_entered_at
           where ${reentryCondition(v.reentry)}
          returning contact_id, occurrences),
        journeys as (
          insert into automation_journeys (automation_id, tenant_id, version, contact_id, occurrence, node_id, state,
                                           due_at, context, entered_at)
          select ${target.automationId}::uuid, ${target.tenantId}::uuid, ${target.version}, e.contact_id, e.occurrences,
                 ${v.triggerId}, 'active', ${now.toISOString()}::timestamptz, i.context, ${now.toISOString()}::timestamptz
            from entered e join input i on i.contact = e.contact_id
          returning id, contact_id),
        counted as (
          insert into automation_counters (automation_id, shard, entered)
          select ${target.automationId}::uuid, ${Math.floor(Math.random() * COUNTER_SHARDS)}, count(*)::int from journeys
          having count(*) > 0
          on conflict (automation_id, shard) do update set entered = automation_counters.entered + excluded.entered
          returning 1)
        select j.id, j.contact_id::text as contact_id, (select count(*) from counted)::int as counted from journeys j`,
  );
  for (const r of rows) made.set(String(r.contact_id), Number(r.id));
  return made;
}

// ---------------------------------------------------------------------------------------------
// Claiming and advancing
// ---------------------------------------------------------------------------------------------

export interface Claimed {
  id: number;
  generation: number;
  automationId: string;
  tenantId: string;
  version: number;
  contactId: string;
  nodeId: string;
  state: string;
  context: Record<string, unknown>;
}

function toClaimed(r: Row): Claimed {
  const context = typeof r.context === 'string' ? (JSON.parse(r.context) as unknown) : r.context;
  return {
    id: Number(r.id),
    generation: Number(r.generation),
    automationId: String(r.automation_id),
    tenantId: String(r.tenant_id),
    version: Number(r.version),
    contactId: String(r.contact_id),
    nodeId: String(r.node_id),
    state: String(r.state),
    context: typeof context === 'object' && context !== null ? (context as Record<string, unknown>) : {},
  };
}

/**
 * Claims up to `limit` due journeys of active automations whose lease is free or expired: each claim
 * raises the generation (so a stale holder's later writes match nothing) and leases it until
 * `now + leaseSeconds`. `for update skip locked`: two workers never claim one journey at once.
 */
export async function claimDue(db: Queryable, now: Date, limit: number, leaseSeconds: number): Promise<Claimed[]> {
  const at = now.toISOString();
  const rows = await queryRows(
    db,
    sql`update automation_journeys j
           set generation = j.generation + 1,
               lease_until = ${at}::timestamptz + make_interval(secs => ${leaseSeconds})
          from (select d.id from automation_journeys d
                 where d.state in ('active', 'waiting') and d.due_at <= ${at}::timestamptz
                   and (d.lease_until is null or d.lease_until < ${at}::timestamptz)
                   and exists (select 1 from automations a where a.id = d.automation_id and a.status = 'active')
                 order by d.due_at
                 limit ${limit}
                 for update of d skip locked) c
         where j.id = c.id
        returning j.id, j.generation, j.automation_id::text, j.tenant_id::text, j.version, j.contact_id::text,
                  j.node_id, j.state, j.context`,
  );
  return rows.map(toClaimed);
}

/** What one step decided: its log line, where the journey goes, and what it wrote. */
interface StepResult {
  outcome: string;
  messageId?: string;
  /** The next node, or null when the journey ends here. */
  nextId: string | null;
  /** 'completed' at an exit. */
  end?: 'completed' | 'failed';
  sent?: { carrierId: string };
}

/**
 * What a step reads before its transaction: a send's carrier (made on first use, idempotently) and a
 * contact condition's compiled rule. Read with the database, not the transaction (embedded PGlite has
 * one connection, which an open transaction holds).
 */
interface Prepared {
  send: { carrierId: string; templateId: string } | null;
  condition: SQL | null;
}

/** Tenants' custom attributes, read again after PLAN_TTL_MS (a condition compiles against them). */
const contextByTenant = new Map<string, { at: number; context: Awaited<ReturnType<typeof segmentContext>> }>();

/**
 * What a condition's rule compiles against (the tenant's attributes and watched contracts), read again
 * after PLAN_TTL_MS. A rule on a contract no longer watched matches nobody, as in a saved segment.
 */
async function contextOf(deps: Deps, tenantId: string) {
  const hit = contextByTenant.get(tenantId);
  if (hit && Date.now() - hit.at < PLAN_TTL_MS) return hit.context;
  const context = await segmentContext(deps.db, tenantId, 'matchNobody');
  if (contextByTenant.size >= 10_000) contextByTenant.clear();
  contextByTenant.set(tenantId, { at: Date.now(), context });
  return context;
}

async function prepareStep(deps: Deps, journey: Claimed, node: JourneyNode): Promise<Prepared> {
  if (node.type === 'condition' && node.data.on === 'contact')
    return { send: null, condition: segmentCondition(node.data.rule, await contextOf(deps, journey.tenantId)) };
  return { send: await planSend(deps, journey, node), condition: null };
}

/** Send plans by tenant and template, read again after PLAN_TTL_MS (a deleted template is seen then). */
const plans = new Map<string, { at: number; plan: Prepared['send'] }>();
const PLAN_TTL_MS = 5_000;

async function planSend(deps: Deps, journey: Claimed, node: JourneyNode): Promise<Prepared['send']> {
  if (node.type !== 'send_email' || !isUuid(node.data.template_id)) return null;
  const key = `${journey.tenantId}:${node.data.template_id}`;
  const hit = plans.get(key);
  if (hit && Date.now() - hit.at < PLAN_TTL_MS) return hit.plan;
  const plan = await readSendPlan(deps, journey, node.data.template_id);
  if (plans.size >= 10_000) plans.clear();
  plans.set(key, { at: Date.now(), plan });
  return plan;
}

async function readSendPlan(deps: Deps, journey: Claimed, templateId: string): Promise<Prepared['send']> {
  const [t] = await queryRows(
    deps.db,
    sql`select id::text, name, version from templates where id = ${templateId}::uuid
         and tenant_id = ${journey.tenantId}::uuid`,
  );
  if (!t) return null;
  const carrierId = await carrierOf(
    deps.db,
    {
      tenantId: journey.tenantId,
      templateId: String(t.id),
      templateName: String(t.name),
      templateVersion: Number(t.version),
      fromEmail: '',
      replyTo: '',
    },
    DEFAULT_SETTINGS,
  );
  return { carrierId, templateId: String(t.id) };
}

function edgeFrom(v: RunnableVersion, nodeId: string, handle: 'yes' | 'no' | null): string | null {
  const out = v.next.get(nodeId) ?? [];
  const edge = handle ? out.find((e) => e.sourceHandle === handle) : out[0];
  return edge?.target ?? null;
}

async function contactRow(tx: Queryable, journey: Claimed): Promise<Row | null> {
  const [c] = await queryRows(
    tx,
    sql`select id::text, email, wallet, status from contacts
         where id = ${journey.contactId}::uuid and tenant_id = ${journey.tenantId}::uuid`,
  );
  return c ?? null;
}

/** Applies the journey's current node inside `tx` (the journey row is locked and its generation checked). */
async function applyStep(
  deps: Deps,
  tx: Queryable,
  v: RunnableVersion,
  journey: Claimed,
  node: JourneyNode,
  prepared: Prepared,
): Promise<StepResult> {
  const plan = prepared.send;
  switch (node.type) {
    case 'trigger':
      return { outcome: 'entered', nextId: edgeFrom(v, node.id, null) };
    case 'wait':
      return { outcome: 'waited', nextId: edgeFrom(v, node.id, null) };
    case 'exit':
      return { outcome: 'exit', nextId: null, end: 'completed' };
    case 'condition': {
      let yes: boolean;
      if (node.data.on === 'event') {
        const event = journey.context.event;
        const args =
          typeof event === 'object' && event !== null && 'args' in event && typeof event.args === 'object'
            ? (event.args as Record<string, unknown>)
            : {};
        yes = argsMatch(args, node.data.conditions);
      } else {
        const condition = prepared.condition ?? sql`false`;
        const [r] = await queryRows(
          tx,
          sql`select exists (select 1 from contacts where id = ${journey.contactId}::uuid
                               and tenant_id = ${journey.tenantId}::uuid and ${condition}) as yes`,
        );
        yes = r?.yes === true;
      }
      return { outcome: yes ? 'yes' : 'no', nextId: edgeFrom(v, node.id, yes ? 'yes' : 'no') };
    }
    case 'update_contact': {
      const d = node.data;
      const nextId = edgeFrom(v, node.id, null);
      if (d.action === 'set_attribute') {
        const changed = await queryRows(
          tx,
          sql`update contacts c set attributes = c.attributes || jsonb_build_object(a.id::text, ${JSON.stringify(d.value)}::jsonb),
                     updated_at = now()
                from custom_attributes a
               where c.id = ${journey.contactId}::uuid and c.tenant_id = ${journey.tenantId}::uuid
                 and a.tenant_id = c.tenant_id and a.key = ${d.attribute}
              returning c.id`,
        );
        return {
          outcome: changed.length > 0 ? `set ${d.attribute}` : 'skipped: the attribute no longer exists',
          nextId,
        };
      }
      if (!isUuid(d.list_id)) return { outcome: 'skipped: the list no longer exists', nextId };
      if (d.action === 'add_to_list') {
        await tx.execute(
          sql`insert into list_members (list_id, contact_id)
              select l.id, ${journey.contactId}::uuid from lists l
               where l.id = ${d.list_id}::uuid and l.tenant_id = ${journey.tenantId}::uuid
              on conflict do nothing`,
        );
        return { outcome: 'added to the list', nextId };
      }
      await tx.execute(
        sql`delete from list_members m using lists l
             where m.list_id = ${d.list_id}::uuid and m.contact_id = ${journey.contactId}::uuid
               and l.id = m.list_id and l.tenant_id = ${journey.tenantId}::uuid`,
      );
      return { outcome: 'removed from the list', nextId };
    }
    case 'send_email': {
      const nextId = edgeFrom(v, node.id, null);
      if (!plan) return { outcome: 'skipped: the template no longer exists', nextId };
      const contact = await contactRow(tx, journey);
      if (!contact) return { outcome: 'skipped: the contact no longer exists', nextId };
      if (contact.status !== 'subscribed')
        return { outcome: `skipped: the contact is ${String(contact.status)}`, nextId };
      const email = textOf(contact, 'email');
      const wallet = textOf(contact, 'wallet');
      const to = recipientOf(email ?? wallet ?? '', deps.config.campaigns.walletMailDomain);
      if (!to.ok) return { outcome: 'skipped: the contact has no address to send to', nextId };
      const messageId = randomUUID();
      const data: Record<string, unknown> = {};
      for (const key of ['event', 'data'] as const)
        if (journey.context[key] !== undefined) data[key] = journey.context[key];
      await writeMessages(tx, [
        {
          tenantId: journey.tenantId,
          idempotency: null,
          planned: [
            {
              messageId,
              tenantId: journey.tenantId,
              templateId: plan.templateId,
              carrierId: plan.carrierId,
              address: to.address,
              channel: to.channel,
              contactId: journey.contactId,
              data,
            },
          ],
        },
      ]);
      return { outcome: 'sent', messageId, nextId, sent: { carrierId: plan.carrierId } };
    }
  }
}

/** Where the journey waits next: a wait node's due time from `now` in the tenant's zone. */
function dueAtNode(node: JourneyNode | undefined, now: Date, zone: string): Date | null {
  if (node?.type !== 'wait') return null;
  return node.data.wait === 'duration'
    ? new Date(now.getTime() + node.data.seconds * 1000)
    : nextWeekdayTime(now, zone, node.data.weekday, node.data.time);
}

export type StepOutcome = 'advanced' | 'waiting' | 'ended' | 'stale';

/** Steps applied at most in one transaction (a journey's instant steps run together). */
export const STEPS_PER_TRANSACTION = 16;

/**
 * What the steps of a version read before their transaction, per node: every send's plan and every
 * contact condition's compiled rule (both cached: planSend, and the tenant's attributes per pass).
 */
async function prepareVersion(deps: Deps, journey: Claimed, v: RunnableVersion): Promise<Map<string, Prepared>> {
  const out = new Map<string, Prepared>();
  for (const node of v.nodes.values())
    if (node.type === 'send_email' || (node.type === 'condition' && node.data.on === 'contact'))
      out.set(node.id, await prepareStep(deps, journey, node));
  return out;
}

const NOTHING: Prepared = { send: null, condition: null };

/**
 * Steps of a claimed journey, in one transaction: the journey row locked at the claimed generation
 * (none: another worker took it over, 'stale'); then, for each step, the node applied, its log line
 * written, the journey moved to its next node (due now, or at a wait's end) or ended, and the counters
 * changed; on to the next node while it is due now, at most `maxSteps`. All of it commits or none does.
 */
async function advance(
  deps: Deps,
  journey: Claimed,
  now: Date,
  maxSteps: number,
): Promise<{ outcome: StepOutcome; steps: number }> {
  const v = await runnableVersion(deps.db, journey.automationId, journey.version);
  const prepared = await prepareVersion(deps, journey, v);
  const result = await deps.db.transaction(async (tx) => {
    const [locked] = await queryRows(
      tx,
      sql`select j.id, t.time_zone from automation_journeys j join tenants t on t.id = j.tenant_id
           where j.id = ${journey.id} and j.generation = ${journey.generation} and j.state in ('active', 'waiting')
           for update of j`,
    );
    if (!locked) return 'stale' as const;
    const zone = textOf(locked, 'time_zone') ?? 'UTC';
    const carriers = new Set<string>();
    let nodeId = journey.nodeId;
    let state: string = 'active';
    let steps = 0;
    while (state === 'active' && steps < maxSteps) {
      const node = v.nodes.get(nodeId);
      const step: StepResult = node
        ? await applyStep(deps, tx, v, { ...journey, nodeId }, node, prepared.get(node.id) ?? NOTHING)
        : { outcome: 'failed: the step no longer exists', nextId: null, end: 'failed' };
      const at = now.toISOString();
      const nextNode = step.nextId ? v.nodes.get(step.nextId) : undefined;
      const end = step.end ?? (nextNode ? null : 'failed');
      const waitUntil = end ? null : dueAtNode(nextNode, now, zone);
      state = end ?? (waitUntil ? 'waiting' : 'active');
      const completed = end === 'completed' ? 1 : 0;
      const sent = step.sent ? 1 : 0;
      if (step.sent) carriers.add(step.sent.carrierId);
      // The log line, the journey's move and the counters: one statement.
      await tx.execute(
        sql`with logged as (
              insert into automation_steps (journey_id, node_id, type, outcome, message_id, at)
              values (${journey.id}, ${nodeId}, ${node?.type ?? 'unknown'}, ${step.outcome},
                      ${step.messageId ?? null}::uuid, ${at}::timestamptz)
              returning 1),
            moved as (
              update automation_journeys
                 set node_id = ${end ? nodeId : (step.nextId ?? nodeId)}, state = ${state},
                     due_at = ${end ? null : (waitUntil ?? now).toISOString()}::timestamptz,
                     lease_until = ${state === 'active' ? sql`lease_until` : sql`null`},
                     steps = steps + 1, updated_at = ${at}::timestamptz
               where id = ${journey.id} and generation = ${journey.generation}
              returning 1),
            counted as (
              insert into automation_counters (automation_id, shard, completed, emails_sent)
              select ${journey.automationId}::uuid, ${journey.id % COUNTER_SHARDS}, ${completed}, ${sent}
               where ${completed + sent} > 0
              on conflict (automation_id, shard) do update
                 set completed = automation_counters.completed + excluded.completed,
                     emails_sent = automation_counters.emails_sent + excluded.emails_sent
              returning 1)
            select (select count(*) from logged)::int, (select count(*) from moved)::int, (select count(*) from counted)::int`,
      );
      steps++;
      if (!end) nodeId = step.nextId ?? nodeId;
    }
    return { state, steps, nodeId, carriers };
  });
  if (result === 'stale') return { outcome: 'stale', steps: 0 };
  journey.nodeId = result.nodeId;
  // After the commit: the carriers' runs (a stop before it leaves the rows queued; every start queues carriers).
  for (const carrier of result.carriers) await enqueueCarrier(deps.jobs, carrier);
  const outcome = result.state === 'active' ? 'advanced' : result.state === 'waiting' ? 'waiting' : 'ended';
  return { outcome, steps: result.steps };
}

/** One step of a claimed journey in its own transaction (see `advance`). */
export async function advanceOnce(deps: Deps, journey: Claimed, now: Date): Promise<StepOutcome> {
  return (await advance(deps, journey, now, 1)).outcome;
}

/** A step that threw (a rule that no longer compiles, say): the journey fails with the reason in its log. */
export async function failJourney(db: Database, journey: Claimed, reason: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const done = await queryRows(
      tx,
      sql`update automation_journeys set state = 'failed', due_at = null, lease_until = null, updated_at = ${now.toISOString()}::timestamptz
           where id = ${journey.id} and generation = ${journey.generation} and state in ('active', 'waiting')
          returning id`,
    );
    if (done.length === 0) return;
    await tx.execute(
      sql`insert into automation_steps (journey_id, node_id, type, outcome, at)
          values (${journey.id}, ${journey.nodeId}, 'error', ${`failed: ${reason}`.slice(0, 500)}, ${now.toISOString()}::timestamptz)
          on conflict (journey_id, node_id) do nothing`,
    );
  });
}

/**
 * Runs a claimed journey until it waits, ends or is taken over (a graph is finite and acyclic), its
 * instant steps up to STEPS_PER_TRANSACTION at a time in one transaction.
 */
export async function runJourney(deps: Deps, journey: Claimed, now: Date): Promise<number> {
  let steps = 0;
  for (;;) {
    let r: { outcome: StepOutcome; steps: number };
    try {
      r = await advance(deps, journey, now, STEPS_PER_TRANSACTION);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      deps.log.warn({ err: error, journey: journey.id }, 'an automation step failed');
      await failJourney(deps.db, journey, reason, now);
      return steps;
    }
    steps += r.steps;
    if (r.outcome !== 'advanced') return steps;
  }
}
