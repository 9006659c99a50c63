/**
 * Smart-contract monitoring's tables (spec section 2: engagement/smart-contracts; docs/onchain.md): the
 * contracts a tenant watches with the watcher's checkpoint, the confirmed events they emitted, and the
 * facts about wallets that segments read (who holds how much of a token, who did which event when, when a
 * wallet was first seen).
 *
 * Wallet addresses in these tables are lower-case hex (`0x` + 40), compared with `lower(contacts.wallet)
 * collate "C"`, the expression the contacts' wallet index holds. Token amounts are exact integers in the
 * token's smallest unit (`numeric(78, 0)` holds any uint256).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from '../db/columns';
import { tenants, users } from '../db/shared-schema';
import type { WatchState } from '../contracts';

/** A uint256 as `numeric(78, 0)`, read and written as a decimal string (never a JS number). */
const uint256 = customType<{ data: string; driverData: string }>({
  dataType: () => 'numeric(78, 0)',
});

/**
 * A watched contract. `abi` is the pasted ABI (validated: shared/src/onchain/abi.ts), `events` the
 * signatures of the watched events (`Transfer(address,address,uint256)`). The checkpoint is
 * `lastBlock` (every confirmed block up to it is processed) with its hash; `generation` fences the
 * watcher: a run writes only while the generation it read is current, so a stale run's late writes are
 * refused. `tokenDecimals` is set when the contract is a token whose Transfer events keep balances.
 */
export const watchedContracts = pgTable(
  'watched_contracts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    chainId: integer('chain_id').notNull(),
    /** EIP-55 checksummed, as shown. */
    address: text('address').notNull(),
    name: text('name').notNull(),
    abi: jsonb('abi').notNull(),
    events: text('events').array().notNull(),
    startBlock: bigint('start_block', { mode: 'bigint' }).notNull(),
    confirmations: integer('confirmations').notNull().default(1),
    state: text('state').$type<WatchState>().notNull().default('catching_up'),
    /** The RPC's message when state is `error`, and while the watcher backs off after a failure. */
    lastError: text('last_error'),
    errorAt: timestamp('error_at', { withTimezone: true, mode: 'date' }),
    /** Consecutive failed reads (the backoff's exponent); 0 after a good read. */
    failures: integer('failures').notNull().default(0),
    /** The checkpoint: the last block processed (startBlock - 1 before the first), and its hash. */
    lastBlock: bigint('last_block', { mode: 'bigint' }).notNull(),
    lastBlockHash: text('last_block_hash'),
    /** The chain's head when last read. */
    headBlock: bigint('head_block', { mode: 'bigint' }),
    generation: integer('generation').notNull().default(0),
    /** Decimals of the token whose balances are kept (ERC-20 `decimals()`, 0 for ERC-721); null: none kept. */
    tokenDecimals: integer('token_decimals'),
    tokenSymbol: text('token_symbol'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('watched_contracts_address_idx').on(t.tenantId, t.chainId, sql`lower(${t.address})`),
    index('watched_contracts_tenant_idx').on(t.tenantId, t.createdAt),
    check('watched_contracts_state_check', sql`${t.state} in ('catching_up', 'live', 'error', 'paused')`),
    check('watched_contracts_confirmations_check', sql`${t.confirmations} between 1 and 1000`),
  ],
);

/**
 * A confirmed event of a watched contract, decoded. One row per log: (contract, transaction hash, log
 * index) is unique, so reading a range twice adds nothing. `args` holds the decoded arguments by name,
 * integers as decimal strings. `wallets` are the address arguments (lower-case), which link the event to
 * contacts.
 */
export const contractEvents = pgTable(
  'contract_events',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    contractId: uuid('contract_id')
      .notNull()
      .references(() => watchedContracts.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id').notNull(),
    eventName: text('event_name').notNull(),
    args: jsonb('args').$type<Record<string, string | boolean | string[]>>().notNull(),
    wallets: text('wallets').array().notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    blockHash: text('block_hash').notNull(),
    blockTime: timestamp('block_time', { withTimezone: true, mode: 'date' }).notNull(),
    txHash: text('tx_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('contract_events_log_idx').on(t.contractId, t.txHash, t.logIndex),
    // The feed: newest first.
    index('contract_events_feed_idx').on(t.contractId, t.blockNumber, t.logIndex),
  ],
);

/**
 * One wallet's part in one event (an event with two address arguments has two rows): what "did event X
 * at least K times within a period" counts, per contract, event and wallet.
 */
export const walletEvents = pgTable(
  'wallet_events',
  {
    eventId: bigint('event_id', { mode: 'bigint' })
      .notNull()
      .references(() => contractEvents.id, { onDelete: 'cascade' }),
    wallet: text('wallet').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    contractId: uuid('contract_id').notNull(),
    eventName: text('event_name').notNull(),
    blockTime: timestamp('block_time', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.wallet] }),
    index('wallet_events_rule_idx').on(t.contractId, t.eventName, t.wallet, t.blockTime),
  ],
);

/**
 * A wallet's balance of a watched token, kept from its Transfer events up to the contract's checkpoint
 * (ERC-20: the amount; ERC-721: the number of tokens). Rows at zero stay (the wallet held once).
 */
export const tokenHoldings = pgTable(
  'token_holdings',
  {
    contractId: uuid('contract_id')
      .notNull()
      .references(() => watchedContracts.id, { onDelete: 'cascade' }),
    wallet: text('wallet').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    balance: uint256('balance').notNull(),
    updatedBlock: bigint('updated_block', { mode: 'bigint' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.contractId, t.wallet] }),
    // "Holds at least N": the holders of one token above an amount.
    index('token_holdings_balance_idx').on(t.contractId, t.balance),
  ],
);

/** When the tenant's watched contracts first saw a wallet (the earliest block time of any of its events). */
export const onchainWallets = pgTable(
  'onchain_wallets',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    wallet: text('wallet').notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.wallet] }),
    index('onchain_wallets_seen_idx').on(t.tenantId, t.firstSeenAt),
  ],
);
