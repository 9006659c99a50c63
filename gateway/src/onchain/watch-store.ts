/**
 * The watcher's reads and writes of the database (docs/onchain.md). Every write is fenced by the
 * contract's `generation`: it first moves the checkpoint with `where generation = <the one read>` and
 * bumps it, so a stale run (a frozen process whose job was taken over, or a read begun before an edit)
 * changes nothing; and all of a range's effects (events, wallet events, balances, first-seen wallets,
 * the checkpoint) commit in one transaction.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/index';
import { json, queryRows, type Queryable, textOf } from '../lib/raw-sql';
import type { DecodedEvent } from './decode';
import { type TokenKind, transferDeltas } from './rules';
import type { WatchState } from '../contracts';

/** A watched contract as the watcher holds it between two reads. */
export interface WatchRow {
  id: string;
  tenantId: string;
  address: string;
  events: string[];
  confirmations: number;
  state: WatchState;
  failures: number;
  errorAt: Date | null;
  startBlock: bigint;
  lastBlock: bigint;
  lastBlockHash: string | null;
  generation: number;
  tokenDecimals: number | null;
  tokenSymbol: string | null;
  updatedAt: Date;
}

const date = (v: unknown): Date | null =>
  v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v));

/** The contracts of a chain the watcher reads: every one not paused. */
export async function loadWatchRows(db: Queryable, chainId: number): Promise<WatchRow[]> {
  const rows = await queryRows(
    db,
    sql`select id::text, tenant_id::text, address, events, confirmations, state, failures, error_at,
               start_block::text, last_block::text, last_block_hash, generation, token_decimals, token_symbol, updated_at
          from watched_contracts where chain_id = ${chainId} and state <> 'paused' order by id`,
  );
  return rows.map((r) => ({
    id: textOf(r, 'id') ?? '',
    tenantId: textOf(r, 'tenant_id') ?? '',
    address: textOf(r, 'address') ?? '',
    events: Array.isArray(r.events) ? r.events.map(String) : [],
    confirmations: Number(r.confirmations),
    state: textOf(r, 'state') as WatchState,
    failures: Number(r.failures),
    errorAt: date(r.error_at),
    startBlock: BigInt(textOf(r, 'start_block') ?? '0'),
    lastBlock: BigInt(textOf(r, 'last_block') ?? '-1'),
    lastBlockHash: textOf(r, 'last_block_hash'),
    generation: Number(r.generation),
    tokenDecimals: r.token_decimals === null ? null : Number(r.token_decimals),
    tokenSymbol: textOf(r, 'token_symbol'),
    updatedAt: date(r.updated_at) ?? new Date(0),
  }));
}

/** A contract's ABI as stored (the watcher compiles its event set once per edit). */
export async function loadAbi(db: Queryable, id: string): Promise<unknown> {
  const [row] = await queryRows(db, sql`select abi from watched_contracts where id = ${id}`);
  return row?.abi ?? null;
}

/** Moves the fence: the checkpoint and state of `row` change only if its generation is still the one read. */
async function fence(
  tx: Queryable,
  row: WatchRow,
  set: {
    lastBlock: bigint;
    lastBlockHash: string | null;
    head: bigint | null;
    state: WatchState;
    token?: { decimals: number; symbol: string | null } | undefined;
  },
): Promise<number | null> {
  const [updated] = await queryRows(
    tx,
    sql`update watched_contracts
           set last_block = ${set.lastBlock.toString()}::bigint, last_block_hash = ${set.lastBlockHash},
               head_block = coalesce(${set.head?.toString() ?? null}::bigint, head_block), state = ${set.state},
               failures = 0, last_error = null, error_at = null,
               token_decimals = coalesce(${set.token?.decimals ?? null}::int, token_decimals),
               token_symbol = coalesce(${set.token?.symbol ?? null}::text, token_symbol),
               generation = generation + 1, updated_at = now()
         where id = ${row.id} and generation = ${row.generation}
     returning generation`,
  );
  return updated ? Number(updated.generation) : null;
}

export interface RangeWrite {
  /** Decoded events of this contract in the range, each with its block time. */
  events: (DecodedEvent & { blockTime: Date })[];
  /** The checkpoint after the range: its last block and that block's hash. */
  checkpoint: { block: bigint; hash: string };
  head: bigint;
  state: WatchState;
  token: TokenKind | null;
  /** Decimals and symbol read once for a token whose balances start being kept. */
  tokenInfo?: { decimals: number; symbol: string | null } | undefined;
  /**
   * Opening balances: for wallets the range names that hold no row yet, `balanceOf` at the checkpoint
   * before the range (a token that existed before the start block: docs/onchain.md, "Balances").
   */
  openings?: ReadonlyMap<string, bigint> | undefined;
}

/**
 * Writes one range of one contract in one transaction: the fenced checkpoint first, then the events
 * (deduplicated by transaction hash and log index), their wallet rows, the balances moved by the
 * Transfers that were new, and the wallets' first sighting. Returns the new generation, or null when
 * the fence refused the write (nothing was written).
 */
export async function writeRange(db: Database, row: WatchRow, write: RangeWrite): Promise<number | null> {
  return db.transaction(async (tx) => {
    const generation = await fence(tx, row, {
      lastBlock: write.checkpoint.block,
      lastBlockHash: write.checkpoint.hash,
      head: write.head,
      state: write.state,
      token: write.tokenInfo,
    });
    if (generation === null || write.events.length === 0) return generation;
    const input = write.events.map((e) => ({
      e: e.eventName,
      a: e.args,
      w: `{${e.wallets.map((w) => w.wallet).join(',')}}`,
      b: e.blockNumber.toString(),
      h: e.blockHash,
      t: e.blockTime.toISOString(),
      x: e.txHash,
      i: e.logIndex,
    }));
    const inserted = await queryRows(
      tx,
      sql`with r as (select * from json_to_recordset(${json(input)}::json)
                       as r(e text, a jsonb, w text, b text, h text, t timestamptz, x text, i int)),
               ins as (insert into contract_events
                         (contract_id, tenant_id, event_name, args, wallets, block_number, block_hash, block_time, tx_hash, log_index)
                       select ${row.id}::uuid, ${row.tenantId}::uuid, r.e, r.a, r.w::text[], r.b::bigint, r.h, r.t, r.x, r.i from r
                       on conflict (contract_id, tx_hash, log_index) do nothing
                       returning id, wallets, event_name, block_time, tx_hash, log_index),
               we as (insert into wallet_events (event_id, wallet, tenant_id, contract_id, event_name, block_time)
                      select ins.id, w.wallet, ${row.tenantId}::uuid, ${row.id}::uuid, ins.event_name, ins.block_time
                        from ins cross join lateral unnest(ins.wallets) as w(wallet)
                      on conflict do nothing)
          select tx_hash, log_index from ins`,
    );
    if (inserted.length === 0) return generation;
    const fresh = new Set(inserted.map((r) => `${textOf(r, 'tx_hash')}:${Number(r.log_index)}`));
    const added = write.events.filter((e) => fresh.has(`${e.txHash}:${e.logIndex}`));
    if (write.openings && write.openings.size > 0) {
      const input = [...write.openings].map(([w, b]) => ({ w, b: b.toString() }));
      await tx.execute(
        sql`insert into token_holdings (contract_id, wallet, tenant_id, balance, updated_block)
            select ${row.id}::uuid, r.w, ${row.tenantId}::uuid, r.b::numeric, ${row.lastBlock.toString()}::bigint
              from json_to_recordset(${json(input)}::json) as r(w text, b text)
            on conflict (contract_id, wallet) do nothing`,
      );
    }
    if (write.token) {
      const deltas = transferDeltas(
        write.token,
        added.flatMap((e) => (e.transfer ? [e.transfer] : [])),
      );
      if (deltas.size > 0) await applyDeltas(tx, row, deltas, write.checkpoint.block);
    }
    const firstSeen = new Map<string, Date>();
    for (const e of added)
      for (const { wallet } of e.wallets) {
        const seen = firstSeen.get(wallet);
        if (!seen || e.blockTime < seen) firstSeen.set(wallet, e.blockTime);
      }
    if (firstSeen.size > 0) {
      await tx.execute(
        sql`insert into onchain_wallets (tenant_id, wallet, first_seen_at)
            select ${row.tenantId}::uuid, r.w, r.t
              from json_to_recordset(${json([...firstSeen].map(([w, t]) => ({ w, t: t.toISOString() })))}::json)
                as r(w text, t timestamptz)
            on conflict (tenant_id, wallet) do update
              set first_seen_at = least(onchain_wallets.first_seen_at, excluded.first_seen_at)`,
      );
    }
    return generation;
  });
}

async function applyDeltas(tx: Queryable, row: WatchRow, deltas: Map<string, bigint>, block: bigint): Promise<void> {
  const input = [...deltas].filter(([, d]) => d !== 0n).map(([w, d]) => ({ w, d: d.toString() }));
  if (input.length === 0) return;
  await tx.execute(
    sql`insert into token_holdings (contract_id, wallet, tenant_id, balance, updated_block)
        select ${row.id}::uuid, r.w, ${row.tenantId}::uuid, r.d::numeric, ${block.toString()}::bigint
          from json_to_recordset(${json(input)}::json) as r(w text, d text)
        on conflict (contract_id, wallet) do update
          set balance = token_holdings.balance + excluded.balance, updated_block = excluded.updated_block`,
  );
}

/** Of `wallets` (lower case), those without a balance row of the contract yet. */
export async function walletsWithoutHolding(
  db: Queryable,
  contractId: string,
  wallets: readonly string[],
): Promise<string[]> {
  if (wallets.length === 0) return [];
  const held = await queryRows(
    db,
    sql`select wallet from token_holdings where contract_id = ${contractId}::uuid and wallet = any(${`{${wallets.join(',')}}`}::text[])`,
  );
  const known = new Set(held.map((r) => textOf(r, 'wallet')));
  return wallets.filter((w) => !known.has(w));
}

/** Marks the contract up to date (or still catching up) without a new range: state and head only. */
export async function writeState(db: Database, row: WatchRow, state: WatchState, head: bigint): Promise<number | null> {
  return fence(db, row, { lastBlock: row.lastBlock, lastBlockHash: row.lastBlockHash, head, state });
}

/** A failed read: state `error` with the RPC's message, one more failure (the backoff's exponent). */
export async function writeFailure(db: Queryable, row: WatchRow, message: string, at: Date): Promise<number | null> {
  const [updated] = await queryRows(
    db,
    sql`update watched_contracts
           set state = 'error', last_error = ${message}, error_at = ${at.toISOString()}::timestamptz,
               failures = failures + 1, generation = generation + 1, updated_at = now()
         where id = ${row.id} and generation = ${row.generation}
     returning generation`,
  );
  return updated ? Number(updated.generation) : null;
}

/** Stored events of a contract, newest block first: their block numbers and hashes (finding a reorg's fork). */
export async function storedBlocks(
  db: Queryable,
  contractId: string,
  below: bigint,
  limit: number,
): Promise<{ block: bigint; hash: string }[]> {
  const rows = await queryRows(
    db,
    sql`select distinct block_number::text as block, block_hash from contract_events
         where contract_id = ${contractId} and block_number <= ${below.toString()}::bigint
         order by 1 desc limit ${limit}`,
  );
  return rows.map((r) => ({ block: BigInt(textOf(r, 'block') ?? '0'), hash: textOf(r, 'block_hash') ?? '' }));
}

/**
 * A reorganisation below the checkpoint: every event after `fork` is deleted with its effects (the
 * balances its Transfers moved, wallets first seen only through it) and the checkpoint goes back to
 * `fork`, in one fenced transaction; the watcher then reads those blocks again from the chain as it is.
 */
export async function rewind(
  db: Database,
  row: WatchRow,
  fork: { block: bigint; hash: string | null },
  token: TokenKind | null,
  transferArgs: readonly [string, string, string] | null,
): Promise<number | null> {
  return db.transaction(async (tx) => {
    const generation = await fence(tx, row, {
      lastBlock: fork.block,
      lastBlockHash: fork.hash,
      head: null,
      state: 'catching_up',
    });
    if (generation === null) return null;
    const deleted = await queryRows(
      tx,
      sql`delete from contract_events where contract_id = ${row.id} and block_number > ${fork.block.toString()}::bigint
          returning event_name, args, wallets`,
    );
    if (token && transferArgs) {
      const [from, to, value] = transferArgs;
      const transfers = deleted.flatMap((r) => {
        const args = (r.args ?? {}) as Record<string, unknown>;
        if (r.event_name !== 'Transfer' || typeof args[value] !== 'string') return [];
        return [
          {
            from: String(args[from]).toLowerCase(),
            to: String(args[to]).toLowerCase(),
            value: BigInt(String(args[value])),
          },
        ];
      });
      const deltas = transferDeltas(token, transfers);
      for (const [w, d] of deltas) deltas.set(w, -d);
      await applyDeltas(tx, row, deltas, fork.block);
    }
    const wallets = [...new Set(deleted.flatMap((r) => (Array.isArray(r.wallets) ? r.wallets.map(String) : [])))];
    if (wallets.length > 0) {
      const list = `{${wallets.join(',')}}`;
      await tx.execute(
        sql`delete from onchain_wallets where tenant_id = ${row.tenantId} and wallet = any(${list}::text[])`,
      );
      await tx.execute(
        sql`insert into onchain_wallets (tenant_id, wallet, first_seen_at)
            select tenant_id, wallet, min(block_time) from wallet_events
             where tenant_id = ${row.tenantId} and wallet = any(${list}::text[])
             group by tenant_id, wallet`,
      );
    }
    return generation;
  });
}
