/**
 * Segment rules (react-querybuilder JSON) compiled to one boolean SQL condition over the unaliased
 * `contacts` table. The allowlist is the contracts' `segmentFields` + `OPERATORS_BY_KIND`; anything
 * else is a 400 with `errors.rule`. Every value (and every attribute id) is a bound parameter.
 *
 * Every rule compiles to a TWO-valued condition (never SQL NULL): a missing value simply does not
 * match, and a negative operator (`!=`, `doesNotContain`, `notIn`) is exactly the complement of its
 * positive one, so "E-mail != x" also matches contacts without an e-mail. AND, OR and NOT over such
 * conditions behave as people expect, and a rule and its negation split the audience in two.
 *
 * On-chain fields (the tenant's watched contracts) compile in onchain-rules.ts; a rule naming one that
 * is no longer watched is refused or matches nobody, as the context says (segment-context.ts).
 */
import { and, eq, inArray, ne, notInArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  ATTRIBUTE_FIELD_PREFIX,
  isSegmentGroup,
  MAX_SEGMENT_DAYS,
  MAX_SEGMENT_DEPTH,
  MAX_SEGMENT_RULES,
  ONCHAIN_FIELD_PREFIX,
  ONCHAIN_MESSAGES,
  OPERATORS_BY_KIND,
  segmentFields,
  type SegmentField,
  type SegmentGroup,
  type SegmentOperator,
  type SegmentRule,
  type SegmentRuleValue,
} from '../../contracts';
import { contacts, listMembers, type CustomAttributeRow } from '../../db/schema';
import { badRequest } from '../../errors';
import { eventRule, firstSeenRule, onchainOperand, tokenRule, type OnchainOperand } from './onchain-rules';
import { RuleError } from './rule-error';
import type { SegmentContext } from './segment-context';

export const SEGMENT_RULES_MESSAGE = 'Check the segment rules.';
const TOO_DEEP = `Nest groups at most ${MAX_SEGMENT_DEPTH} levels deep.`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const WALLET_PREFIX = /^(?:0x)?([0-9a-f]{1,40})$/i;
const WALLET_FULL = /^0x[0-9a-f]{40}$/i;
const DAY_MS = 86_400_000;

const TRUE = sql`true`;
const FALSE = sql`false`;

// ---------------------------------------------------------------------------------------------
// Operands: what a field reads, per kind
// ---------------------------------------------------------------------------------------------

/** Text and wallet fields: a lower-cased text expression, and how a comparison on it stays two-valued. */
interface TextOperand {
  kind: 'text' | 'wallet';
  /** Lower-cased, `collate "C"` (for columns, the expression the contacts indexes hold); NULL when absent. */
  lowered: SQL;
  /** Has a non-empty value. */
  present: SQL;
  /** A comparison on `lowered` as a two-valued condition (false when there is no value). */
  matches(comparison: SQL): SQL;
}
interface EnumOperand {
  kind: 'enum';
  column: AnyPgColumn;
}
interface ListOperand {
  kind: 'list';
}
interface TimestampOperand {
  kind: 'timestamp';
  column: AnyPgColumn;
}
interface ChainOperand {
  kind: 'onchain';
  operand: OnchainOperand;
}
interface AttributeOperand {
  kind: 'number' | 'date' | 'boolean';
  attributeId: string;
}
type Operand = TextOperand | EnumOperand | ListOperand | TimestampOperand | AttributeOperand | ChainOperand;

/** A text column: `present and comparison`, which an index on `lower(column) collate "C"` can serve. */
function columnText(kind: TextOperand['kind'], column: AnyPgColumn, present: SQL): TextOperand {
  return {
    kind,
    lowered: sql`(lower(${column}) collate "C")`,
    present,
    matches: (comparison) => sql`(${present} and ${comparison})`,
  };
}

/** The contact's own fields, by rule field name (kinds as in BASE_SEGMENT_FIELDS). */
const COLUMN_OPERANDS: Record<string, Operand> = {
  email: columnText('text', contacts.email, sql`${contacts.email} is not null`),
  wallet: columnText('wallet', contacts.wallet, sql`${contacts.wallet} is not null`),
  // Names are never NULL; '' is "no name".
  first_name: columnText('text', contacts.firstName, sql`${contacts.firstName} <> ''`),
  last_name: columnText('text', contacts.lastName, sql`${contacts.lastName} <> ''`),
  status: { kind: 'enum', column: contacts.status },
  source: { kind: 'enum', column: contacts.source },
  list: { kind: 'list' },
  created_at: { kind: 'timestamp', column: contacts.createdAt },
  updated_at: { kind: 'timestamp', column: contacts.updatedAt },
};

// Attribute values are read from `contacts.attributes` by attribute id (a parameter too). Each key
// lookup costs about as much as the rest of a row's filtering, so every rule reads its key once
// where it can, and never casts: a value of the wrong type (a string in a number attribute, say)
// does not match and never raises an error.

/** `contacts.attributes ->> '<id>'`: the value as text, NULL when absent. */
const attributeText = (id: string) => sql`(${contacts.attributes} ->> ${id}::text)`;

function attributeOperand(attribute: CustomAttributeRow): Operand {
  const id = attribute.id;
  switch (attribute.type) {
    case 'text':
    case 'wallet':
      return {
        kind: attribute.type,
        lowered: sql`(lower(${attributeText(id)}) collate "C")`,
        present: sql`coalesce(${attributeText(id)}, '') <> ''`,
        matches: (comparison) => sql`coalesce(${comparison}, false)`,
      };
    case 'number':
    case 'date':
    case 'boolean':
      return { kind: attribute.type, attributeId: id };
  }
}

/**
 * Numbers: one jsonpath predicate, `$."<id>" ? (<filter>)`, compares JSON numbers as numbers with
 * one lookup and no text round trip (at a million rows about twice as fast as a guarded
 * `->>`/`::numeric`). Lax mode: a missing key, or a comparison with a string or a boolean, is
 * simply no match. The path (from the attribute id, a uuid of the database) is a parameter too.
 */
function numberPath(id: string, filter: string, vars: Record<string, number> = {}): SQL {
  if (!UUID.test(id)) throw new Error(`attribute id ${id} is not a uuid`);
  return sql`jsonb_path_exists(${contacts.attributes}, ${`$."${id}" ? (${filter})`}::jsonpath, ${jsonParam(vars)}, true)`;
}

/**
 * A JSON parameter: a constant for the planner (`jsonb_build_object(...)` is only stable, so it
 * would be evaluated again for every row).
 */
const jsonParam = (value: Record<string, number | boolean>) => sql`${JSON.stringify(value)}::jsonb`;

/**
 * Dates: 'YYYY-MM-DD' text compared byte-wise (`collate "C"`: such strings order as days), then
 * checked for that shape, so anything else stored never matches.
 */
function storedDay(id: string, comparison: (day: SQL) => SQL): SQL {
  const day = sql`(${attributeText(id)} collate "C")`;
  return sql`coalesce(${comparison(day)} and ${day} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', false)`;
}

// ---------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------

type Value = SegmentRuleValue | undefined;

/** Lists arrive as arrays; react-querybuilder's "a,b" strings are read the same way. */
function listValue(value: Value): (string | number)[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return value.split(',').map((s) => s.trim());
  throw new RuleError('choose one or more values.');
}

function textValue(value: Value): string {
  if (typeof value !== 'string') throw new RuleError('enter a text value.');
  const text = value.trim();
  if (!text) throw new RuleError('enter a value.');
  return text;
}

function numberValue(value: Value): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() ? Number(value) : NaN;
  if (!Number.isFinite(n)) throw new RuleError('enter a number.');
  return n;
}

/** A calendar day 'YYYY-MM-DD' as its UTC midnight. */
function dayValue(value: Value): Date {
  const match = typeof value === 'string' ? DAY.exec(value.trim()) : null;
  if (match) {
    const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const date = new Date(Date.UTC(y, m - 1, d));
    if (date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d) return date;
  }
  throw new RuleError('enter a date as YYYY-MM-DD.');
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const addDays = (date: Date, days: number) => new Date(date.getTime() + days * DAY_MS);

function pair<T>(value: Value, read: (v: Value) => T, what: string): [T, T] {
  const items = Array.isArray(value) || typeof value === 'string' ? listValue(value) : [];
  if (items.length !== 2) throw new RuleError(`enter two ${what} (from and to).`);
  return [read(items[0]), read(items[1])];
}

function daysValue(value: Value): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_SEGMENT_DAYS) {
    throw new RuleError(`enter a whole number of days from 1 to ${MAX_SEGMENT_DAYS}.`);
  }
  return n;
}

function booleanValue(value: Value): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new RuleError('choose true or false.');
}

/** A LIKE pattern that matches `text` literally (backslash escapes the wildcards). */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

// ---------------------------------------------------------------------------------------------
// Rules by kind
// ---------------------------------------------------------------------------------------------

function textRule(operand: TextOperand, operator: SegmentOperator, value: Value): SQL {
  const { lowered, present, matches } = operand;
  const like = (pattern: string) => matches(sql`${lowered} like lower(${pattern})`);
  switch (operator) {
    case 'null':
      return sql`not (${present})`;
    case 'notNull':
      return present;
    case '=':
    case '!=': {
      const equal = matches(sql`${lowered} = lower(${walletOrText(operand, value)})`);
      return operator === '=' ? equal : sql`not ${equal}`;
    }
    case 'beginsWith':
      return like(`${literal(walletOrText(operand, value, true))}%`);
    case 'contains':
      return like(`%${literal(textValue(value))}%`);
    case 'doesNotContain':
      return sql`not ${like(`%${literal(textValue(value))}%`)}`;
    case 'endsWith':
      return like(`%${literal(textValue(value))}`);
    default:
      throw new RuleError('this operator is not available.');
  }
}

/** Wallet values: a whole address for `=`/`!=`, a hex prefix (0x optional) for `beginsWith`. */
function walletOrText(operand: TextOperand, value: Value, prefix = false): string {
  const text = textValue(value);
  if (operand.kind === 'text') return text;
  if (prefix) {
    const match = WALLET_PREFIX.exec(text);
    if (!match) throw new RuleError('enter the start of a wallet address (0x and hexadecimal characters).');
    return `0x${match[1]}`.toLowerCase();
  }
  if (!WALLET_FULL.test(text)) throw new RuleError('enter a wallet address: 0x followed by 40 hexadecimal characters.');
  return text.toLowerCase();
}

function enumRule(operand: EnumOperand, field: SegmentField, operator: SegmentOperator, value: Value): SQL {
  const allowed = field.values ?? [];
  const check = (v: string | number): string => {
    if (typeof v === 'string' && allowed.includes(v)) return v;
    throw new RuleError(`"${String(v)}" is not one of: ${allowed.join(', ')}.`);
  };
  switch (operator) {
    case '=':
    case '!=': {
      if (typeof value !== 'string') throw new RuleError('choose a value.');
      const one = check(value);
      return operator === '=' ? eq(operand.column, one) : ne(operand.column, one);
    }
    case 'in':
    case 'notIn': {
      const many = listValue(value).map(check);
      if (many.length === 0) throw new RuleError('choose one or more values.');
      return operator === 'in' ? inArray(operand.column, many) : notInArray(operand.column, many);
    }
    default:
      throw new RuleError('this operator is not available.');
  }
}

function listRule(operator: SegmentOperator, value: Value): SQL {
  const ids = listValue(value).map((v) => {
    if (typeof v === 'string' && UUID.test(v)) return v.toLowerCase();
    throw new RuleError(`"${String(v)}" is not a list id.`);
  });
  if (ids.length === 0) throw new RuleError('choose one or more lists.');
  const member = sql`exists (select 1 from ${listMembers} where ${listMembers.contactId} = ${contacts.id} and ${inArray(listMembers.listId, ids)})`;
  return operator === 'in' ? member : sql`not ${member}`;
}

function timestampRule(operand: TimestampOperand, operator: SegmentOperator, value: Value): SQL {
  const { column } = operand;
  const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;
  switch (operator) {
    case 'null':
      return sql`${column} is null`;
    case 'notNull':
      return sql`${column} is not null`;
    case '<':
      return sql`${column} < ${at(dayValue(value))}`;
    case '>':
      return sql`${column} >= ${at(addDays(dayValue(value), 1))}`;
    case 'between': {
      const [from, to] = orderedDays(value);
      return sql`(${column} >= ${at(from)} and ${column} < ${at(addDays(to, 1))})`;
    }
    case 'lastDays':
      return sql`${column} >= ${at(new Date(Date.now() - daysValue(value) * DAY_MS))}`;
    default:
      throw new RuleError('this operator is not available.');
  }
}

function orderedDays(value: Value): [Date, Date] {
  const [a, b] = pair(value, dayValue, 'dates as YYYY-MM-DD');
  return a <= b ? [a, b] : [b, a];
}

const JSONPATH_COMPARISON: Partial<Record<SegmentOperator, string>> = {
  '=': '==',
  '!=': '==',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};
const IS_NUMBER = '@.type() == "number"';

function numberRule(id: string, operator: SegmentOperator, value: Value): SQL {
  switch (operator) {
    case 'null':
      return sql`not ${numberPath(id, IS_NUMBER)}`;
    case 'notNull':
      return numberPath(id, IS_NUMBER);
    case '=':
    case '!=':
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const test = numberPath(id, `@ ${JSONPATH_COMPARISON[operator] ?? '=='} $v`, { v: numberValue(value) });
      return operator === '!=' ? sql`not ${test}` : test;
    }
    case 'between': {
      const [a, b] = pair(value, numberValue, 'numbers');
      const [lo, hi] = a <= b ? [a, b] : [b, a];
      return numberPath(id, '@ >= $lo && @ <= $hi', { lo, hi });
    }
    default:
      throw new RuleError('this operator is not available.');
  }
}

function dateAttributeRule(id: string, operator: SegmentOperator, value: Value): SQL {
  const within = (from: Date, to: Date) =>
    storedDay(id, (day) => sql`${day} >= ${isoDay(from)} and ${day} <= ${isoDay(to)}`);
  switch (operator) {
    case 'null':
      return sql`not ${storedDay(id, () => TRUE)}`;
    case 'notNull':
      return storedDay(id, () => TRUE);
    case '<': {
      const bound = isoDay(dayValue(value));
      return storedDay(id, (day) => sql`${day} < ${bound}`);
    }
    case '>': {
      const bound = isoDay(dayValue(value));
      return storedDay(id, (day) => sql`${day} > ${bound}`);
    }
    case 'between':
      return within(...orderedDays(value));
    case 'lastDays': {
      const today = new Date(Date.now());
      return within(addDays(today, -daysValue(value)), today);
    }
    default:
      throw new RuleError('this operator is not available.');
  }
}

function booleanRule(id: string, operator: SegmentOperator, value: Value): SQL {
  const isBoolean = sql`coalesce(jsonb_typeof(${contacts.attributes} -> ${id}::text) = 'boolean', false)`;
  switch (operator) {
    case 'null':
      return sql`not (${isBoolean})`;
    case 'notNull':
      return isBoolean;
    case '=':
      return sql`${contacts.attributes} @> ${jsonParam({ [id]: booleanValue(value) })}`;
    default:
      throw new RuleError('this operator is not available.');
  }
}

// ---------------------------------------------------------------------------------------------
// The tree
// ---------------------------------------------------------------------------------------------

interface Allowlist {
  fields: Map<string, SegmentField>;
  attributes: Map<string, CustomAttributeRow>;
  unwatched: SegmentContext['unwatched'];
}

function operandOf(field: SegmentField, allow: Allowlist): Operand | undefined {
  if (field.name.startsWith(ONCHAIN_FIELD_PREFIX)) {
    const operand = onchainOperand(field);
    return operand ? { kind: 'onchain', operand } : undefined;
  }
  if (field.name.startsWith(ATTRIBUTE_FIELD_PREFIX)) {
    const attribute = allow.attributes.get(field.name.slice(ATTRIBUTE_FIELD_PREFIX.length));
    return attribute ? attributeOperand(attribute) : undefined;
  }
  return COLUMN_OPERANDS[field.name];
}

function isOperator(kindOperators: readonly SegmentOperator[], operator: string): operator is SegmentOperator {
  return kindOperators.some((allowed) => allowed === operator);
}

/** A rule on an on-chain field that is not (or no longer) one of the tenant's watched contracts' fields. */
function unwatchedRule(rule: SegmentRule, allow: Allowlist): SQL {
  if (allow.unwatched === 'matchNobody') return FALSE;
  throw new RuleError(`"${rule.field}": ${ONCHAIN_MESSAGES.deleted}`);
}

function onchainRule(operand: OnchainOperand, operator: SegmentOperator, value: Value): SQL {
  switch (operand.kind) {
    case 'token':
      return tokenRule(operand.contractId, operand.decimals, operator, value);
    case 'event':
      return eventRule(operand.contractId, operand.eventName, operator, value);
    case 'firstSeen':
      return firstSeenRule(operator, (column) => timestampRule({ kind: 'timestamp', column }, operator, value));
  }
}

function compileRule(rule: SegmentRule, allow: Allowlist): SQL {
  const field = allow.fields.get(rule.field);
  const operand = field ? operandOf(field, allow) : undefined;
  if ((!field || !operand) && rule.field.startsWith(ONCHAIN_FIELD_PREFIX)) return unwatchedRule(rule, allow);
  if (!field || !operand) throw new RuleError(`"${rule.field}" is not a field you can use in a segment.`);
  const operators = OPERATORS_BY_KIND[field.kind];
  const { operator, value } = rule;
  if (!isOperator(operators, operator)) {
    throw new RuleError(
      `${field.label}: the operator "${operator}" is not available (use one of: ${operators.join(', ')}).`,
    );
  }
  try {
    switch (operand.kind) {
      case 'text':
      case 'wallet':
        return textRule(operand, operator, value);
      case 'enum':
        return enumRule(operand, field, operator, value);
      case 'list':
        return listRule(operator, value);
      case 'timestamp':
        return timestampRule(operand, operator, value);
      case 'number':
        return numberRule(operand.attributeId, operator, value);
      case 'date':
        return dateAttributeRule(operand.attributeId, operator, value);
      case 'boolean':
        return booleanRule(operand.attributeId, operator, value);
      case 'onchain':
        return onchainRule(operand.operand, operator, value);
    }
  } catch (error) {
    if (error instanceof RuleError) throw new RuleError(`${field.label} ${operator}: ${error.message}`);
    throw error;
  }
}

interface Walk {
  allow: Allowlist;
  rules: number;
  groups: number;
  errors: string[];
}

function compileGroup(group: SegmentGroup, depth: number, walk: Walk): SQL {
  if (depth > MAX_SEGMENT_DEPTH) {
    throw new RuleError(TOO_DEEP);
  }
  const parts: SQL[] = [];
  for (const node of group.rules) {
    if (isSegmentGroup(node)) {
      if (++walk.groups > MAX_SEGMENT_RULES) throw new RuleError(`Use at most ${MAX_SEGMENT_RULES} groups.`);
      parts.push(compileGroup(node, depth + 1, walk));
      continue;
    }
    if (++walk.rules > MAX_SEGMENT_RULES) throw new RuleError(`Use at most ${MAX_SEGMENT_RULES} rules.`);
    try {
      parts.push(compileRule(node, walk.allow));
    } catch (error) {
      if (!(error instanceof RuleError)) throw error;
      walk.errors.push(error.message);
      parts.push(FALSE);
    }
  }
  // An empty group matches every contact (as react-querybuilder's formatQuery has it).
  const body =
    parts.length === 0 ? TRUE : sql`(${sql.join(parts, sql.raw(group.combinator === 'or' ? ' or ' : ' and '))})`;
  return group.not ? sql`(not ${body})` : body;
}

/**
 * The rule tree as one boolean condition over `contacts` (no tenant scope: see `segmentWhere`).
 * Throws 400 `{message: 'Check the segment rules.', errors: {rule: [...]}}` for anything outside
 * the allowlist, naming the field and operator of each bad rule.
 */
export function segmentCondition(rule: SegmentGroup, context: SegmentContext): SQL {
  const { attributes, contracts, unwatched } = context;
  const walk: Walk = {
    allow: {
      fields: new Map(segmentFields(attributes, contracts).map((f) => [f.name, f])),
      attributes: new Map(attributes.map((a) => [a.key, a])),
      unwatched,
    },
    rules: 0,
    groups: 0,
    errors: [],
  };
  let condition: SQL;
  try {
    condition = compileGroup(rule, 1, walk);
  } catch (error) {
    if (!(error instanceof RuleError)) throw error;
    walk.errors.push(error.message);
    condition = FALSE;
  }
  if (walk.errors.length > 0) throw badRequest(SEGMENT_RULES_MESSAGE, { rule: walk.errors });
  return condition;
}

/**
 * For a request body, before schema validation: a 400 when `body.rule` nests groups deeper than
 * allowed. The schema check is recursive and a few hundred levels would exhaust the stack (a 500);
 * this walk is iterative and stops at the first group too deep.
 */
export function rejectDeepRule(body: unknown): void {
  const rule = typeof body === 'object' && body !== null && 'rule' in body ? body.rule : null;
  const stack: [unknown, number][] = [[rule, 1]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [node, depth] = item;
    const rules = typeof node === 'object' && node !== null && 'rules' in node ? node.rules : null;
    if (!Array.isArray(rules)) continue;
    if (depth > MAX_SEGMENT_DEPTH) {
      throw badRequest(SEGMENT_RULES_MESSAGE, { rule: [TOO_DEEP] });
    }
    for (const child of rules) stack.push([child, depth + 1]);
  }
}

/** The ONE condition that counts, previews and sends to a segment use: the tenant's contacts that match. */
export function segmentWhere(tenantId: string, rule: SegmentGroup, context: SegmentContext): SQL {
  const condition = segmentCondition(rule, context);
  return and(eq(contacts.tenantId, tenantId), condition) ?? condition;
}
