/**
 * What stops a journey from running (docs/automations.md, "Validation"), as one pure function over the
 * graph and what the tenant has: every problem names its node (null for the graph as a whole), so the
 * editor can mark it. Activation refuses a version with any problem; the runtime then never meets an
 * unconnected step, a missing branch, a loop, a missing template or a field that does not exist.
 */
import {
  AUTOMATION_MESSAGES as M,
  isSegmentGroup,
  parseIntegerExpression,
  segmentFields,
  type SegmentContract,
  type ArgCondition,
  type AttributeType,
  type JourneyGraph,
  type JourneyNode,
  type JourneyProblem,
  type SegmentGroup,
} from '../contracts';

/** What a journey may refer to, read from the tenant's data (ids as the database spells them). */
export interface JourneyContext {
  templates: ReadonlySet<string>;
  lists: ReadonlySet<string>;
  segments: ReadonlySet<string>;
  widgets: ReadonlySet<string>;
  attributes: ReadonlyMap<string, { name: string; type: AttributeType }>;
  /** Watched contracts: their watched events by name, with each event's argument names. */
  contracts: ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>;
  /** The tenant's watched contracts as segment rules name them (a condition's on-chain fields). */
  segmentContracts: readonly SegmentContract[];
}

const NEEDS_ONE_NEXT: ReadonlySet<JourneyNode['type']> = new Set(['trigger', 'wait', 'send_email', 'update_contact']);

/** Whether a value can be set on an attribute of `type` (null clears any). */
function fitsAttribute(type: AttributeType, value: string | number | boolean | null): boolean {
  if (value === null) return true;
  switch (type) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'date':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);
    case 'text':
    case 'wallet':
      return typeof value === 'string';
  }
}

/** The fields a contact rule names, walked without recursion (rules are at most a few levels deep). */
function ruleFields(rule: SegmentGroup): string[] {
  const out: string[] = [];
  const stack: SegmentGroup[] = [rule];
  for (let g = stack.pop(); g; g = stack.pop()) {
    for (const r of g.rules) {
      if (isSegmentGroup(r)) stack.push(r);
      else out.push(r.field);
    }
  }
  return out;
}

function conditionProblems(
  nodeId: string,
  conditions: readonly ArgCondition[],
  args: readonly string[] | null,
): JourneyProblem[] {
  const out: JourneyProblem[] = [];
  for (const c of conditions) {
    if (args && !args.includes(c.arg))
      out.push({ node_id: nodeId, message: M.unknownArgument.replace('{arg}', c.arg) });
    const integerOperator = c.operator !== '=' && c.operator !== '!=';
    if (integerOperator && parseIntegerExpression(c.value) === null)
      out.push({ node_id: nodeId, message: M.badExpression });
  }
  return out;
}

/** Every problem of `graph` against `ctx`, in graph order (empty: it can run). */
export function validateJourney(graph: JourneyGraph, ctx: JourneyContext): JourneyProblem[] {
  const problems: JourneyProblem[] = [];
  const add = (node_id: string | null, message: string) => problems.push({ node_id, message });

  const byId = new Map<string, JourneyNode>();
  for (const node of graph.nodes) {
    if (byId.has(node.id)) add(node.id, M.duplicateId);
    else byId.set(node.id, node);
  }
  const triggers = graph.nodes.filter((n) => n.type === 'trigger');
  if (triggers.length === 0) add(null, M.noTrigger);
  for (const extra of triggers.slice(1)) add(extra.id, M.twoTriggers);
  const trigger = triggers[0]?.type === 'trigger' ? triggers[0] : null;

  // Edges: both ends exist, nothing enters the trigger, handles only on conditions.
  const outgoing = new Map<string, { target: string; handle: string | null }[]>();
  for (const e of graph.edges) {
    const source = byId.get(e.source);
    const target = byId.get(e.target);
    if (!source || !target) {
      add(source ? e.source : null, M.unknownEdgeEnd);
      continue;
    }
    if (target.type === 'trigger') add(e.source, M.intoTrigger);
    const handle = e.sourceHandle ?? null;
    if ((source.type === 'condition') !== (handle !== null)) add(source.id, M.branchHandle);
    const list = outgoing.get(e.source) ?? [];
    list.push({ target: e.target, handle });
    outgoing.set(e.source, list);
  }

  // Each node's outgoing edges.
  for (const node of byId.values()) {
    const out = outgoing.get(node.id) ?? [];
    if (node.type === 'exit') {
      if (out.length > 0) add(node.id, M.exitHasNext);
    } else if (node.type === 'condition') {
      const yes = out.filter((o) => o.handle === 'yes').length;
      const no = out.filter((o) => o.handle === 'no').length;
      if (yes !== 1 || no !== 1) add(node.id, M.needsBranches);
    } else if (NEEDS_ONE_NEXT.has(node.type)) {
      if (out.length === 0) add(node.id, M.needsNext);
      else if (out.length > 1) add(node.id, M.oneNext);
    }
  }

  // Reachable from the trigger, and no cycle (iterative depth-first search with colours).
  const reached = new Set<string>();
  if (trigger) {
    const colour = new Map<string, 'open' | 'done'>();
    const stack: { id: string; next: number }[] = [{ id: trigger.id, next: 0 }];
    colour.set(trigger.id, 'open');
    reached.add(trigger.id);
    const cyclic = new Set<string>();
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const out = outgoing.get(top.id) ?? [];
      if (top.next >= out.length) {
        colour.set(top.id, 'done');
        stack.pop();
        continue;
      }
      const target = out[top.next++]!.target;
      const c = colour.get(target);
      if (c === 'open') {
        if (!cyclic.has(top.id)) add(top.id, M.cycle);
        cyclic.add(top.id);
      } else if (c === undefined) {
        colour.set(target, 'open');
        reached.add(target);
        stack.push({ id: target, next: 0 });
      }
    }
    for (const node of byId.values()) if (!reached.has(node.id)) add(node.id, M.unconnected);
  }

  // What the nodes refer to.
  const fields = new Set(
    segmentFields(
      [...ctx.attributes].map(([key, a]) => ({ key, name: a.name, type: a.type })),
      ctx.segmentContracts,
    ).map((f) => f.name),
  );
  let eventArgs: readonly string[] | null = null;
  if (trigger) {
    const t = trigger.data;
    switch (t.type) {
      case 'list_joined':
        if (!ctx.lists.has(t.list_id)) add(trigger.id, M.unknownList);
        break;
      case 'segment_entered':
        if (!ctx.segments.has(t.segment_id)) add(trigger.id, M.unknownSegment);
        break;
      case 'widget_signup':
        if (t.widget_id !== null && !ctx.widgets.has(t.widget_id)) add(trigger.id, M.unknownWidget);
        break;
      case 'contract_event': {
        const events = ctx.contracts.get(t.contract_id);
        const args = events?.get(t.event);
        if (!events) add(trigger.id, M.unwatchedContract);
        else if (!args) add(trigger.id, M.unwatchedEvent);
        eventArgs = args ?? [];
        if (args && t.wallet_arg !== null && !args.includes(t.wallet_arg))
          add(trigger.id, M.unknownArgument.replace('{arg}', t.wallet_arg));
        problems.push(...conditionProblems(trigger.id, t.conditions, args ?? null));
        break;
      }
      case 'date_attribute': {
        const a = ctx.attributes.get(t.attribute);
        if (!a) add(trigger.id, M.unknownAttribute);
        else if (a.type !== 'date') add(trigger.id, M.notDateAttribute);
        break;
      }
      case 'api_call':
        break;
    }
  }
  for (const node of byId.values()) {
    switch (node.type) {
      case 'send_email':
        if (!node.data.template_id) add(node.id, M.noTemplate);
        else if (!ctx.templates.has(node.data.template_id)) add(node.id, M.unknownTemplate);
        break;
      case 'condition':
        if (node.data.on === 'contact') {
          for (const field of ruleFields(node.data.rule))
            if (!fields.has(field)) add(node.id, M.unknownField.replace('{field}', field));
        } else if (eventArgs === null) {
          add(node.id, M.eventConditionWithoutEvent);
        } else {
          problems.push(...conditionProblems(node.id, node.data.conditions, eventArgs));
        }
        break;
      case 'update_contact':
        if (node.data.action === 'set_attribute') {
          const a = ctx.attributes.get(node.data.attribute);
          if (!a) add(node.id, M.unknownAttribute);
          else if (!fitsAttribute(a.type, node.data.value)) add(node.id, M.valueType);
        } else if (!ctx.lists.has(node.data.list_id)) add(node.id, M.unknownList);
        break;
      default:
        break;
    }
  }
  return problems;
}
