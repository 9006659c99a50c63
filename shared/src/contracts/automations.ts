/**
 * Automations (spec section 2: engagement/automations, permission and feature automations): the journey
 * format the editor draws with @xyflow/react and the gateway runs, the exact integer expressions of
 * contract-event conditions, and the automation resources. docs/automations.md has the runtime's rules.
 *
 * A version's graph is `{ nodes, edges }` in @xyflow/react's shape: nodes `{ id, type, position, data }`,
 * edges `{ id, source, target, sourceHandle? }`; a condition's two edges leave by the handles `yes` and
 * `no`. One node is the trigger; every other node is a step.
 */
import * as z from 'zod/mini';
import { isStorableText, listQuery, page, text, UNSTORABLE_TEXT_MESSAGE } from '@console/shared/contracts/core';
import { SegmentGroup } from './segments';

export const AUTOMATION_LIMITS = {
  name: 100,
  nodes: 200,
  edges: 400,
  nodeId: 100,
  conditions: 20,
  expression: 200,
  /** The longest wait: a year. */
  waitSeconds: 366 * 86_400,
  /** The farthest a date trigger reaches before or after the date. */
  offsetDays: 366,
  reentryDays: 3_650,
  /** `data` of an API trigger, as JSON. */
  dataChars: 16_384,
} as const;

// ---------------------------------------------------------------------------------------------
// Exact integer expressions: `1000 * 10^18`, `5e18` is not one (no floats anywhere)
// ---------------------------------------------------------------------------------------------

/** Largest exponent accepted after `^` (10^78 is past any uint256 already). */
const MAX_EXPONENT = 256n;

/**
 * Parses an integer expression of decimal literals with `+`, `-`, `*`, `^` (right-associative, above
 * `*`) and parentheses into an exact bigint; null when it is anything else (a decimal point, an
 * exponent over 256, a negative exponent, unknown characters). Arithmetic is bigint throughout.
 */
export function parseIntegerExpression(source: string): bigint | null {
  if (source.length === 0 || source.length > AUTOMATION_LIMITS.expression) return null;
  const tokens = source.match(/\d+|[-+*^()]|\S/g) ?? [];
  let at = 0;
  const peek = () => tokens[at];
  const fail = (): never => {
    throw new SyntaxError('not an integer expression');
  };
  function primary(): bigint {
    const t = tokens[at++];
    if (t === undefined) return fail();
    if (/^\d+$/.test(t)) return BigInt(t);
    if (t === '-') return -power();
    if (t === '(') {
      const value = sum();
      if (tokens[at++] !== ')') fail();
      return value;
    }
    return fail();
  }
  function power(): bigint {
    const base = primary();
    if (peek() !== '^') return base;
    at++;
    const exponent = power();
    if (exponent < 0n || exponent > MAX_EXPONENT) fail();
    return base ** exponent;
  }
  function product(): bigint {
    let value = power();
    while (peek() === '*') {
      at++;
      value *= power();
    }
    return value;
  }
  function sum(): bigint {
    let value = product();
    for (let op = peek(); op === '+' || op === '-'; op = peek()) {
      at++;
      value = op === '+' ? value + product() : value - product();
    }
    return value;
  }
  try {
    const value = sum();
    return at === tokens.length ? value : null;
  } catch (error) {
    if (error instanceof SyntaxError) return null;
    throw error;
  }
}

export const ARG_OPERATORS = ['=', '!=', '<', '<=', '>', '>='] as const;
export type ArgOperator = (typeof ARG_OPERATORS)[number];

/** A condition on one of the event's arguments: integers compared exactly, other values as text. */
export const ArgCondition = z.object({
  arg: text(100),
  operator: z.enum(ARG_OPERATORS),
  /** An integer expression (`1000 * 10^18`) for integer arguments; the value itself otherwise. */
  value: text(AUTOMATION_LIMITS.expression),
});
export type ArgCondition = z.infer<typeof ArgCondition>;

/**
 * Whether an event's arguments meet every condition (the rule the runtime and the replay apply).
 * Integer arguments (decimal strings) are compared as bigint with the parsed expression; anything
 * else compares as lower-cased text with `=` and `!=` only. A missing argument meets nothing.
 */
export function argsMatch(args: Readonly<Record<string, unknown>>, conditions: readonly ArgCondition[]): boolean {
  return conditions.every((c) => {
    const actual = args[c.arg];
    if (typeof actual === 'string' && /^-?\d+$/.test(actual)) {
      const expected = parseIntegerExpression(c.value);
      if (expected === null) return false;
      const a = BigInt(actual);
      switch (c.operator) {
        case '=':
          return a === expected;
        case '!=':
          return a !== expected;
        case '<':
          return a < expected;
        case '<=':
          return a <= expected;
        case '>':
          return a > expected;
        case '>=':
          return a >= expected;
      }
    }
    if (actual === undefined || actual === null) return false;
    const left = (Array.isArray(actual) ? actual.join(',') : String(actual)).toLowerCase();
    const right = c.value.trim().toLowerCase();
    if (c.operator === '=') return left === right;
    if (c.operator === '!=') return left !== right;
    return false;
  });
}

// ---------------------------------------------------------------------------------------------
// Triggers and steps (a node's `data`)
// ---------------------------------------------------------------------------------------------

export const TRIGGER_TYPES = [
  'list_joined',
  'segment_entered',
  'widget_signup',
  'contract_event',
  'date_attribute',
  'api_call',
] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

/** `HH:MM`, 24-hour, in the tenant's time zone. */
const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
const timeOfDay = () => z.string().check(z.regex(TIME, 'Enter a time as HH:MM.'));
const id = () => text(64);

export const Trigger = z.discriminatedUnion('type', [
  z.object({ type: z.literal('list_joined'), list_id: id() }),
  z.object({ type: z.literal('segment_entered'), segment_id: id() }),
  /** A sign-up through one widget, or through any widget of the community when `widget_id` is null. */
  z.object({ type: z.literal('widget_signup'), widget_id: z.nullable(id()) }),
  z.object({
    type: z.literal('contract_event'),
    contract_id: id(),
    /** The event's name (`Transfer`); the contract must watch it. */
    event: text(100),
    /** The address argument that names the contact (`to`); null: every address argument of the event. */
    wallet_arg: z._default(z.nullable(text(100)), null),
    conditions: z.array(ArgCondition).check(z.maxLength(AUTOMATION_LIMITS.conditions)),
  }),
  z.object({
    type: z.literal('date_attribute'),
    /** The key of a date custom attribute; its month and day recur every year (birthdays, anniversaries). */
    attribute: text(100),
    /** Days before (negative) or after (positive) the date. */
    offset_days: z.int().check(z.minimum(-AUTOMATION_LIMITS.offsetDays), z.maximum(AUTOMATION_LIMITS.offsetDays)),
    time: timeOfDay(),
  }),
  z.object({ type: z.literal('api_call') }),
]);
export type Trigger = z.infer<typeof Trigger>;

export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const WaitStep = z.discriminatedUnion('wait', [
  z.object({
    wait: z.literal('duration'),
    seconds: z.int().check(z.minimum(1), z.maximum(AUTOMATION_LIMITS.waitSeconds)),
  }),
  /** Until the next such weekday and time in the tenant's time zone (strictly after the journey arrives). */
  z.object({ wait: z.literal('until'), weekday: z.enum(WEEKDAYS), time: timeOfDay() }),
]);
export type WaitStep = z.infer<typeof WaitStep>;

export const ConditionStep = z.discriminatedUnion('on', [
  /** The contact meets a segment rule (the segment builder's rule). */
  z.object({ on: z.literal('contact'), rule: SegmentGroup }),
  /** The trigger's event meets every condition on its arguments. */
  z.object({
    on: z.literal('event'),
    conditions: z.array(ArgCondition).check(z.minLength(1), z.maxLength(AUTOMATION_LIMITS.conditions)),
  }),
]);
export type ConditionStep = z.infer<typeof ConditionStep>;

export const SendEmailStep = z.object({
  /** A template of the tenant; merge data: `contact.*`, `event.args.*`, `event.*`, `data.*` (API trigger). */
  template_id: text(64),
});
export type SendEmailStep = z.infer<typeof SendEmailStep>;

export const UpdateContactStep = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('set_attribute'),
    attribute: text(100),
    value: z.union([text(1000), z.number(), z.boolean(), z.null()]),
  }),
  z.object({ action: z.literal('add_to_list'), list_id: id() }),
  z.object({ action: z.literal('remove_from_list'), list_id: id() }),
]);
export type UpdateContactStep = z.infer<typeof UpdateContactStep>;

// ---------------------------------------------------------------------------------------------
// The graph
// ---------------------------------------------------------------------------------------------

const Position = z.object({ x: z.number(), y: z.number() });
const nodeId = () => text(AUTOMATION_LIMITS.nodeId).check(z.minLength(1));

export const JourneyNode = z.discriminatedUnion('type', [
  z.object({ id: nodeId(), type: z.literal('trigger'), position: Position, data: Trigger }),
  z.object({ id: nodeId(), type: z.literal('wait'), position: Position, data: WaitStep }),
  z.object({ id: nodeId(), type: z.literal('condition'), position: Position, data: ConditionStep }),
  z.object({ id: nodeId(), type: z.literal('send_email'), position: Position, data: SendEmailStep }),
  z.object({ id: nodeId(), type: z.literal('update_contact'), position: Position, data: UpdateContactStep }),
  z.object({ id: nodeId(), type: z.literal('exit'), position: Position, data: z.object({}) }),
]);
export type JourneyNode = z.infer<typeof JourneyNode>;
export type StepType = Exclude<JourneyNode['type'], 'trigger'>;

export const BRANCHES = ['yes', 'no'] as const;
export type Branch = (typeof BRANCHES)[number];

export const JourneyEdge = z.object({
  id: nodeId(),
  source: nodeId(),
  target: nodeId(),
  /** `yes` or `no` on a condition's edges; absent (or null) elsewhere. */
  sourceHandle: z.optional(z.nullable(z.enum(BRANCHES))),
});
export type JourneyEdge = z.infer<typeof JourneyEdge>;

export const JourneyGraph = z.object({
  nodes: z.array(JourneyNode).check(z.maxLength(AUTOMATION_LIMITS.nodes)),
  edges: z.array(JourneyEdge).check(z.maxLength(AUTOMATION_LIMITS.edges)),
});
export type JourneyGraph = z.infer<typeof JourneyGraph>;

/** Re-entry: a contact enters once ever, every time the trigger fires, or at most once per N days. */
export const Reentry = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('once') }),
  z.object({ mode: z.literal('every_time') }),
  z.object({
    mode: z.literal('once_per_days'),
    days: z.int().check(z.minimum(1), z.maximum(AUTOMATION_LIMITS.reentryDays)),
  }),
]);
export type Reentry = z.infer<typeof Reentry>;

/** A problem that stops a version from running, on the node the editor marks (null: the whole graph). */
export const JourneyProblem = z.object({ node_id: z.nullable(z.string()), message: z.string() });
export type JourneyProblem = z.infer<typeof JourneyProblem>;

export const AUTOMATION_MESSAGES = {
  noTrigger: 'Add a trigger.',
  twoTriggers: 'A journey has one trigger.',
  duplicateId: 'Two nodes have this id.',
  unknownEdgeEnd: 'This connection points at a step that does not exist.',
  unconnected: 'This step is not connected to the trigger.',
  needsNext: 'Connect this step to the next one (or to an exit).',
  oneNext: 'Connect this step to one next step only.',
  needsBranches: 'Connect both the yes and the no branches.',
  branchHandle: 'A condition connects by its yes and no branches.',
  exitHasNext: 'An exit ends the journey: remove its outgoing connection.',
  cycle: 'This step leads back to itself: journeys cannot loop.',
  intoTrigger: 'Nothing can connect into the trigger.',
  noTemplate: 'Choose a template.',
  unknownTemplate: 'This template does not exist.',
  unknownField: 'This condition uses a field that does not exist: {field}.',
  unknownList: 'This list does not exist.',
  unknownSegment: 'This segment does not exist.',
  unknownWidget: 'This widget does not exist.',
  unknownAttribute: 'This custom attribute does not exist.',
  notDateAttribute: 'Choose a date custom attribute.',
  valueType: "This value does not fit the attribute's type.",
  unwatchedContract: 'This contract is not watched.',
  unwatchedEvent: 'This contract does not watch this event.',
  unknownArgument: 'The event has no argument named {arg}.',
  badExpression: 'Enter a whole number or an expression such as 1000 * 10^18.',
  eventConditionWithoutEvent: 'Conditions on the event need a contract event trigger.',
  invalid: 'Activate a valid journey first.',
  notFound: 'Automation not found.',
  notActive: 'This automation is not active.',
  notApiTriggered: 'This automation is not started by an API call.',
  contactNotFound: 'No contact has this e-mail or wallet.',
} as const;

// ---------------------------------------------------------------------------------------------
// Resources
// ---------------------------------------------------------------------------------------------

export const AUTOMATION_STATUSES = ['draft', 'active', 'paused'] as const;
export type AutomationStatus = (typeof AUTOMATION_STATUSES)[number];

/** A row of the grid. */
export const Automation = z.object({
  _id: z.string(),
  name: z.string(),
  /** The current version's trigger type (null: the draft has no trigger yet). */
  trigger: z.nullable(z.enum(TRIGGER_TYPES)),
  status: z.enum(AUTOMATION_STATUSES),
  /** The version new contacts enter (null until first activated). */
  active_version: z.nullable(z.int()),
  entered: z.int(),
  completed: z.int(),
  emails_sent: z.int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Automation = z.infer<typeof Automation>;

export const AUTOMATION_SORT_FIELDS = ['created_at', 'updated_at', 'name', 'status', 'entered'] as const;
export const AutomationListQuery = listQuery(AUTOMATION_SORT_FIELDS, 'created_at');
export type AutomationListQuery = z.infer<typeof AutomationListQuery>;
export const AutomationPage = page(Automation);
export type AutomationPage = z.infer<typeof AutomationPage>;

/** GET /v1/automations/{id}: the row, the current version (the draft when one is being edited) and its problems. */
export const AutomationDetail = z.extend(Automation, {
  version: z.int(),
  graph: JourneyGraph,
  reentry: Reentry,
  problems: z.array(JourneyProblem),
});
export type AutomationDetail = z.infer<typeof AutomationDetail>;

const automationName = () =>
  text(AUTOMATION_LIMITS.name, `Use at most ${AUTOMATION_LIMITS.name} characters.`).check(
    z.trim(),
    z.minLength(1, 'Enter a name.'),
  );

/** POST /v1/automations. */
export const AutomationInput = z.object({
  name: automationName(),
  graph: z._default(JourneyGraph, { nodes: [], edges: [] }),
  reentry: z._default(Reentry, { mode: 'once' }),
});
export type AutomationInput = z.infer<typeof AutomationInput>;

/** PATCH /v1/automations/{id}: the name, and the draft's graph and re-entry rule. */
export const AutomationPatch = z.object({
  name: z.optional(automationName()),
  graph: z.optional(JourneyGraph),
  reentry: z.optional(Reentry),
});
export type AutomationPatch = z.infer<typeof AutomationPatch>;

/** 400 of an activation refused: the message and every problem (a bad request itself: field errors instead). */
export const AutomationInvalid = z.object({
  message: z.string(),
  problems: z.optional(z.array(JourneyProblem)),
  errors: z.optional(z.record(z.string(), z.array(z.string()))),
});
export type AutomationInvalid = z.infer<typeof AutomationInvalid>;

export const JOURNEY_STATES = ['active', 'waiting', 'completed', 'failed'] as const;
export type JourneyState = (typeof JOURNEY_STATES)[number];

/** A contact's journey (the automation log). */
export const Journey = z.object({
  _id: z.string(),
  contact: z.object({ _id: z.nullable(z.string()), email: z.nullable(z.string()), wallet: z.nullable(z.string()) }),
  version: z.int(),
  occurrence: z.int(),
  state: z.enum(JOURNEY_STATES),
  /** The node the journey is at (its last one once completed). */
  current_step: z.string(),
  /** When a waiting journey goes on. */
  due_at: z.nullable(z.string()),
  entered_at: z.string(),
  steps: z.array(z.object({ node_id: z.string(), type: z.string(), outcome: z.string(), at: z.string() })),
});
export type Journey = z.infer<typeof Journey>;

export const JourneyListQuery = listQuery(['entered_at'] as const, 'entered_at');
export type JourneyListQuery = z.infer<typeof JourneyListQuery>;
export const JourneyPage = page(Journey);
export type JourneyPage = z.infer<typeof JourneyPage>;

/** Whether every text in a JSON value (keys and strings, at any depth) can be stored (a walk, no recursion). */
export function storableJson(value: unknown): boolean {
  const stack: unknown[] = [value];
  for (let v = stack.pop(), n = 0; v !== undefined || stack.length > 0; v = stack.pop(), n++) {
    if (n > 100_000) return false;
    if (typeof v === 'string') {
      if (!isStorableText(v)) return false;
    } else if (Array.isArray(v)) stack.push(...v);
    else if (typeof v === 'object' && v !== null)
      for (const [k, x] of Object.entries(v)) {
        if (!isStorableText(k)) return false;
        stack.push(x);
      }
  }
  return true;
}

/** POST /v1/automations/{id}/trigger: the contact by e-mail or wallet, and data for the merge (`data.*`). */
export const AutomationTriggerInput = z.object({
  email: z.optional(text(320)),
  wallet: z.optional(text(64)),
  data: z._default(z.record(text(200), z.unknown()).check(z.refine(storableJson, UNSTORABLE_TEXT_MESSAGE)), {}),
});
export type AutomationTriggerInput = z.input<typeof AutomationTriggerInput>;

/** 202: whether the contact entered (the re-entry rule may keep it out) and its journey. */
export const AutomationTriggered = z.object({ entered: z.boolean(), journey_id: z.nullable(z.string()) });
export type AutomationTriggered = z.infer<typeof AutomationTriggered>;
