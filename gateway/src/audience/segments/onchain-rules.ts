/**
 * Segment rules over what the tenant's watched contracts saw for a contact's wallet (docs/audience.md,
 * "Segments over on-chain facts"): a token balance, how often the wallet took part in an event, when it
 * was first seen. Each compiles to a two-valued condition over the unaliased `contacts` table (as every
 * rule of segment-sql.ts): an `exists` (or `in`) over the on-chain tables joined on
 * `lower(contacts.wallet) collate "C"` (the contacts' wallet index expression; the on-chain tables keep
 * wallets lower-case), false for a contact without a wallet. Contract ids come from the tenant's own
 * watched contracts (the allowlist) and every value is a bound parameter.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  eventCountValue,
  MAX_EVENT_TIMES,
  MAX_SEGMENT_DAYS,
  ONCHAIN_BALANCE_PREFIX,
  ONCHAIN_EVENT_PREFIX,
  ONCHAIN_FIRST_SEEN_FIELD,
  tokenAmountMessage,
  tokenAmountToUnits,
  type SegmentField,
  type SegmentOperator,
  type SegmentRuleValue,
} from '../../contracts';
import { contacts, onchainWallets, tokenHoldings, walletEvents } from '../../db/schema';
import { RuleError } from './rule-error';

const TRUE = sql`true`;
const DAY_MS = 86_400_000;
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const BALANCE_FIELD = new RegExp(`^${escape(ONCHAIN_BALANCE_PREFIX)}(${UUID})$`);
const EVENT_FIELD = new RegExp(`^${escape(ONCHAIN_EVENT_PREFIX)}(${UUID})\\.([A-Za-z_$][A-Za-z0-9_$]*)$`);

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The contact's wallet as the on-chain tables hold wallets (NULL without one). */
const contactWallet = sql`(lower(${contacts.wallet}) collate "C")`;

export type OnchainOperand =
  | { kind: 'token'; contractId: string; decimals: number }
  | { kind: 'event'; contractId: string; eventName: string }
  | { kind: 'firstSeen' };

/** The operand of an on-chain field of the allowlist (undefined: not an on-chain field). */
export function onchainOperand(field: SegmentField): OnchainOperand | undefined {
  if (field.name === ONCHAIN_FIRST_SEEN_FIELD) return { kind: 'firstSeen' };
  const balance = BALANCE_FIELD.exec(field.name);
  if (balance?.[1] && field.token) return { kind: 'token', contractId: balance[1], decimals: field.token.decimals };
  const event = EVENT_FIELD.exec(field.name);
  if (event?.[1] && event[2]) return { kind: 'event', contractId: event[1], eventName: event[2] };
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Token balances
// ---------------------------------------------------------------------------------------------

type Value = SegmentRuleValue | undefined;

function units(value: Value, decimals: number): string {
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
  const amount = tokenAmountToUnits(text, decimals);
  if (amount.problem !== null) throw new RuleError(tokenAmountMessage(amount.problem, decimals));
  return amount.units;
}

/** Compares two unsigned integers written without leading zeros. */
function compareUnits(a: string, b: string): number {
  return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}

/** The wallet has a balance row of the token that meets `condition`; false without one. */
function holds(contractId: string, condition: SQL): SQL {
  return sql`exists (select 1 from ${tokenHoldings} where ${tokenHoldings.contractId} = ${contractId}::uuid and ${tokenHoldings.wallet} = ${contactWallet} and ${condition})`;
}

const amountOf = (units: string) => sql`${units}::numeric`;

/**
 * A wallet without a balance row (or a contact without a wallet) holds 0, so "holds at least 0" is
 * every contact, and `<` is exactly the complement of `>=`. A wallet has at most one row per token, so
 * "between a and b" (a > 0) is one row within both bounds; from 0 it is "no row above b".
 */
export function tokenRule(contractId: string, decimals: number, operator: SegmentOperator, value: Value): SQL {
  const balance = tokenHoldings.balance;
  const atLeast = (amount: string) =>
    amount === '0' ? TRUE : holds(contractId, sql`${balance} >= ${amountOf(amount)}`);
  switch (operator) {
    case '>=':
      return atLeast(units(value, decimals));
    case '<':
      return sql`not ${atLeast(units(value, decimals))}`;
    case 'between': {
      const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
      if (items.length !== 2) throw new RuleError('enter two amounts (from and to).');
      const [a, b] = [units(items[0], decimals), units(items[1], decimals)];
      const [lo, hi] = compareUnits(a, b) <= 0 ? [a, b] : [b, a];
      if (lo === '0') return sql`not ${holds(contractId, sql`${balance} > ${amountOf(hi)}`)}`;
      return holds(contractId, sql`${balance} between ${amountOf(lo)} and ${amountOf(hi)}`);
    }
    default:
      throw new RuleError('this operator is not available.');
  }
}

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

/**
 * "Did the event at least K times (within the last D days)": the wallets with K such rows in
 * `wallet_events` (one per event the wallet took part in), grouped once per statement (`in` a grouped
 * subquery), which the planner joins to the contacts' wallet index; an `exists` per contact made it
 * hash every contact of the tenant instead (bench/README.md, "On-chain segments"). `<` is exactly the
 * complement.
 */
export function eventRule(contractId: string, eventName: string, operator: SegmentOperator, value: Value): SQL {
  const count = eventCountValue(value);
  if (!count) {
    throw new RuleError(
      `enter how many times (1 to ${MAX_EVENT_TIMES}) and, for a period, a number of days from 1 to ${MAX_SEGMENT_DAYS}.`,
    );
  }
  const ofEvent = [
    sql`${walletEvents.contractId} = ${contractId}::uuid`,
    sql`${walletEvents.eventName} = ${eventName}`,
  ];
  if (count.days !== null) {
    const since = new Date(Date.now() - count.days * DAY_MS).toISOString();
    ofEvent.push(sql`${walletEvents.blockTime} >= ${since}::timestamptz`);
  }
  const where = sql.join(ofEvent, sql` and `);
  const did = sql`(${contacts.wallet} is not null and ${contactWallet} in (select ${walletEvents.wallet} from ${walletEvents} where ${where} group by ${walletEvents.wallet} having count(*) >= ${count.times}::int))`;
  switch (operator) {
    case '>=':
      return did;
    case '<':
      return sql`not ${did}`;
    default:
      throw new RuleError('this operator is not available.');
  }
}

// ---------------------------------------------------------------------------------------------
// First seen
// ---------------------------------------------------------------------------------------------

/**
 * "First seen on chain", a date field: `onDate` compiles the operator on a timestamp column (as the
 * contact's own dates do); "is empty" is a wallet never seen (or no wallet).
 */
export function firstSeenRule(operator: SegmentOperator, onDate: (column: AnyPgColumn) => SQL): SQL {
  const seen = (condition: SQL) =>
    sql`exists (select 1 from ${onchainWallets} where ${onchainWallets.tenantId} = ${contacts.tenantId} and ${onchainWallets.wallet} = ${contactWallet} and ${condition})`;
  switch (operator) {
    case 'null':
      return sql`not ${seen(TRUE)}`;
    case 'notNull':
      return seen(TRUE);
    default:
      return seen(onDate(onchainWallets.firstSeenAt));
  }
}
