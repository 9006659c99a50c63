/**
 * The smart-contract watcher of one chain (docs/onchain.md). Each turn it asks the chain for its head
 * once, then reads, for every group of contracts at the same checkpoint and confirmations, the next
 * range of confirmed blocks with ONE `eth_getLogs` over all of them (their addresses and watched
 * events' topics), decodes the logs in slices, and writes each contract's range in one fenced
 * transaction (watch-store.ts). Before a range it checks that the checkpoint block's hash is still the
 * chain's: if not, a reorganisation went deeper than the confirmations, and the contract rewinds to
 * its newest stored block that is still on the chain and reads on from there.
 */
import { getAddress, type Address } from 'viem';
import type { Database } from '../db/index';
import { storageCapabilities } from '../db/storage';
import { parseAbi } from '../contracts';
import { decodeLogs, type DecodedEvent, type DecodeTarget, watchedEventSet } from './decode';
import { type ChainRpc, errorMessage, rpcFailure } from './rpc';
import {
  backoffOver,
  FIRST_RANGE,
  nextRange,
  nextRangeSize,
  safeHead,
  type TokenKind,
  tokenKindOf,
  TRANSFER_SIGNATURE,
  ZERO_ADDRESS,
} from './rules';
import type { ChainSetting, OnchainConfig } from '../lib/chain-settings';
import {
  loadAbi,
  loadWatchRows,
  rewind,
  storedBlocks,
  walletsWithoutHolding,
  type WatchRow,
  writeFailure,
  writeRange,
  writeState,
} from './watch-store';

export interface WatcherDeps {
  db: Database;
  config: OnchainConfig;
  clock: () => Date;
  log: { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
}

interface Compiled {
  updatedAt: number;
  target: DecodeTarget;
  /** The Transfer's argument names (from, to, amount) when balances are kept. */
  transferArgs: readonly [string, string, string] | null;
}

/** Events written per transaction at most (a range with more is written in several, split between blocks). */
const WRITE_EVENTS = 2_000;
/** Stored blocks checked against the chain per step when looking for a reorganisation's fork. */
const FORK_STEP = 64;
/** The wait between two turns while the chain has no contract to read (a new one wakes the watcher at once). */
const IDLE_MS = 5_000;

type Turn = 'more' | 'polled' | 'idle';

export class ChainWatcher {
  /** Each contract's range size (blocks), adapted to the logs its ranges bring. */
  private readonly rangeSizes = new Map<string, number>();
  private readonly compiled = new Map<string, Compiled>();
  /** Per contract: whether it existed before its start block (then new wallets get opening balances). */
  private readonly existedBefore = new Map<string, boolean>();
  private wakeUp: (() => void) | null = null;

  constructor(
    private readonly deps: WatcherDeps,
    readonly chain: ChainSetting,
    private readonly rpc: ChainRpc,
  ) {}

  /** Ends the wait between two turns now (a contract of this chain was added or changed). */
  wake(): void {
    this.wakeUp?.();
  }

  /**
   * Turns until `until` (ms, performance.now()) or the signal: one per poll interval at most, at once
   * while contracts catch up, and every IDLE_MS while the chain has no contract to read.
   */
  async run(signal: AbortSignal, until: number): Promise<void> {
    while (!signal.aborted && performance.now() < until) {
      const started = performance.now();
      let outcome: Turn;
      try {
        outcome = await this.turn();
      } catch (error) {
        // A database failure: the job fails and is retried by the runner.
        if (signal.aborted) return;
        throw error;
      }
      if (outcome === 'more') continue;
      const pause = outcome === 'idle' ? Math.max(IDLE_MS, this.deps.config.pollMs) : this.deps.config.pollMs;
      const wait = Math.min(pause - (performance.now() - started), until - performance.now());
      if (wait > 0) await this.sleep(wait, signal);
    }
  }

  private sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.wakeUp = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      this.wakeUp = done;
    });
  }

  /** One turn: 'more' when some contract is still catching up (the next turn starts at once), 'idle' when none is watched. */
  async turn(): Promise<Turn> {
    const now = this.deps.clock();
    const loaded = await loadWatchRows(this.deps.db, this.chain.id);
    for (const id of this.compiled.keys()) if (!loaded.some((r) => r.id === id)) this.compiled.delete(id);
    for (const id of this.rangeSizes.keys()) if (!loaded.some((r) => r.id === id)) this.rangeSizes.delete(id);
    if (loaded.length === 0) return 'idle';
    const rows = loaded.filter((r) => backoffOver(r.failures, r.errorAt, now, this.deps.config.backoffMaxSeconds));
    if (rows.length === 0) return 'polled';
    let head: bigint;
    try {
      head = await this.rpc.head();
    } catch (error) {
      await this.fail(rows, error);
      return 'polled';
    }
    const groups = new Map<string, WatchRow[]>();
    for (const row of rows) {
      const key = `${row.lastBlock}:${row.confirmations}`;
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    let more = false;
    for (const group of groups.values()) {
      if (await this.readGroup(group, head)) more = true;
    }
    return more ? 'more' : 'polled';
  }

  private async compile(row: WatchRow): Promise<Compiled> {
    const known = this.compiled.get(row.id);
    if (known && known.updatedAt === row.updatedAt.getTime() && known.target.set.topics.length > 0) return known;
    const abi = await loadAbi(this.deps.db, row.id);
    const set = watchedEventSet(abi, row.events);
    const parsed = parseAbi(JSON.stringify(abi));
    const token: TokenKind | null = parsed.events ? tokenKindOf(parsed.events, row.events) : null;
    const transfer = parsed.events?.find((e) => e.signature === TRANSFER_SIGNATURE);
    const names = transfer?.inputs.map((input, i) => input.name || `_${i}`);
    const compiled: Compiled = {
      updatedAt: row.updatedAt.getTime(),
      target: { id: row.id, set, token },
      transferArgs: token && names?.length === 3 ? [names[0] ?? '', names[1] ?? '', names[2] ?? ''] : null,
    };
    this.compiled.set(row.id, compiled);
    return compiled;
  }

  /** Reads the next range of a group of contracts at one checkpoint; true when they are still behind. */
  private async readGroup(group: WatchRow[], head: bigint): Promise<boolean> {
    const first = group[0];
    if (!first) return false;
    const safe = safeHead(head, first.confirmations);
    const size = Math.min(this.deps.config.maxRange, ...group.map((r) => this.rangeSizes.get(r.id) ?? FIRST_RANGE));
    const range = nextRange(first.lastBlock, safe, size);
    if (!range) {
      for (const row of group)
        if (row.state !== 'live' || row.failures > 0) await writeState(this.deps.db, row, 'live', head);
      return false;
    }
    // The checkpoint block must still be the one read: else a reorganisation went below it.
    let rows = group;
    if (first.lastBlock >= 0n && group.some((r) => r.lastBlockHash)) {
      let checkpoint;
      try {
        checkpoint = await this.rpc.header(first.lastBlock);
      } catch (error) {
        await this.fail(group, error);
        return false;
      }
      const moved = group.filter((r) => r.lastBlockHash && r.lastBlockHash !== checkpoint?.hash);
      for (const row of moved) await this.rewindRow(row);
      rows = group.filter((r) => !moved.includes(r));
      if (rows.length === 0) return true;
    }
    const targets = await Promise.all(rows.map((r) => this.compile(r)));
    const byAddress = new Map<string, DecodeTarget>();
    rows.forEach((r, i) => {
      const target = targets[i];
      if (target) byAddress.set(r.address.toLowerCase(), target.target);
    });
    const topics = [...new Set(targets.flatMap((t) => t.target.set.topics))];
    let logs;
    let to;
    try {
      logs =
        topics.length === 0
          ? []
          : await this.rpc.logs({
              addresses: rows.map((r) => getAddress(r.address) as Address),
              topics,
              from: range.from,
              to: range.to,
            });
      to = await this.rpc.header(range.to);
    } catch (error) {
      if (rpcFailure(error) === 'too_many_results' && size > 1) {
        const smaller = nextRangeSize(size, this.deps.config.maxRange, 'too_many');
        for (const row of rows) this.rangeSizes.set(row.id, smaller);
        return true;
      }
      await this.fail(rows, error);
      return false;
    }
    if (!to) return false;
    const next = nextRangeSize(size, this.deps.config.maxRange, { logs: logs.length });
    for (const row of rows) this.rangeSizes.set(row.id, next);
    // A log of the range's last block from another fork than its header: the chain moved while it was read.
    if (logs.some((l) => BigInt(l.blockNumber) === range.to && l.blockHash.toLowerCase() !== to.hash.toLowerCase()))
      return true;
    const decoded = await decodeLogs(logs, byAddress);
    await this.blockTimes(decoded);
    const state = range.to >= safe ? 'live' : 'catching_up';
    for (const [i, row] of rows.entries()) {
      const compiled = targets[i];
      if (!compiled) continue;
      const events = decoded.filter((e) => e.contractId === row.id);
      await this.writeRow(row, compiled.target.token, events, { block: range.to, hash: to.hash }, head, state);
    }
    return state === 'catching_up';
  }

  /** Writes one contract's range, in transactions of at most WRITE_EVENTS events split between blocks. */
  private async writeRow(
    row: WatchRow,
    token: TokenKind | null,
    events: (DecodedEvent & { blockTime?: Date })[],
    checkpoint: { block: bigint; hash: string },
    head: bigint,
    state: 'live' | 'catching_up',
  ): Promise<void> {
    let tokenInfo: { decimals: number; symbol: string | null } | undefined;
    if (token && row.tokenDecimals === null) {
      const info = await this.rpc.tokenInfo(getAddress(row.address)).catch(() => ({ decimals: null, symbol: null }));
      tokenInfo = { decimals: token === 'erc721' ? 0 : (info.decimals ?? 18), symbol: info.symbol };
    }
    const limit = Math.min(WRITE_EVENTS, Math.max(100, storageCapabilities(this.deps.db).writeRows * 4));
    const opens = token !== null && events.some((e) => e.transfer) && (await this.existedBeforeStart(row));
    let current = row;
    let start = 0;
    while (start < events.length || start === 0) {
      let end = Math.min(events.length, start + limit);
      // Split only between blocks: the checkpoint is a whole block.
      while (end < events.length && end > start && events[end]?.blockNumber === events[end - 1]?.blockNumber) end++;
      const last = end >= events.length;
      const slice = events.slice(start, end) as (DecodedEvent & { blockTime: Date })[];
      const lastEvent = slice[slice.length - 1];
      const point = last
        ? checkpoint
        : { block: lastEvent?.blockNumber ?? checkpoint.block, hash: lastEvent?.blockHash ?? checkpoint.hash };
      let openings: Map<string, bigint> | undefined;
      if (opens) {
        try {
          openings = await this.openingBalances(current, slice);
        } catch (error) {
          await this.fail([current], error);
          return;
        }
      }
      const generation = await writeRange(this.deps.db, current, {
        events: slice,
        checkpoint: point,
        head,
        state: last ? state : 'catching_up',
        token,
        tokenInfo,
        openings,
      });
      if (generation === null) return;
      current = { ...current, generation, lastBlock: point.block, lastBlockHash: point.hash };
      tokenInfo = undefined;
      start = end;
      if (last) return;
    }
  }

  /**
   * Whether the contract had code at the block before its start block: then wallets held balances the
   * watcher never saw move, and each wallet first named by a Transfer gets its `balanceOf` at the
   * checkpoint as an opening balance. Asked once per contract and process.
   */
  private async existedBeforeStart(row: WatchRow): Promise<boolean> {
    if (row.startBlock <= 0n) return false;
    const known = this.existedBefore.get(row.id);
    if (known !== undefined) return known;
    const existed = await this.rpc.hadCode(getAddress(row.address), row.startBlock - 1n);
    this.existedBefore.set(row.id, existed);
    return existed;
  }

  /** `balanceOf` at the checkpoint of the wallets `events` transfer that hold no balance row yet. */
  private async openingBalances(row: WatchRow, events: readonly DecodedEvent[]): Promise<Map<string, bigint>> {
    const named = new Set<string>();
    for (const e of events)
      if (e.transfer) for (const w of [e.transfer.from, e.transfer.to]) if (w !== ZERO_ADDRESS) named.add(w);
    const missing = await walletsWithoutHolding(this.deps.db, row.id, [...named]);
    if (missing.length === 0) return new Map();
    return this.rpc.balancesAt(getAddress(row.address), missing, row.lastBlock);
  }

  /** Block times: from the logs (`blockTimestamp`), else from the blocks' headers. */
  private async blockTimes(events: (DecodedEvent & { blockTime?: Date })[]): Promise<void> {
    const missing = new Map<bigint, bigint>();
    for (const e of events) {
      if (e.blockTimestamp === null && !missing.has(e.blockNumber)) {
        const header = await this.rpc.header(e.blockNumber);
        missing.set(e.blockNumber, header?.timestamp ?? 0n);
      }
      e.blockTime = new Date(Number(e.blockTimestamp ?? missing.get(e.blockNumber) ?? 0n) * 1000);
    }
  }

  /**
   * The checkpoint block is no longer on the chain: the fork is the newest stored block whose hash the
   * chain still has (else the block before the start block); everything after it is undone and read again.
   */
  private async rewindRow(row: WatchRow): Promise<void> {
    let fork: { block: bigint; hash: string | null } = { block: row.startBlock - 1n, hash: null };
    let below = row.lastBlock;
    search: for (;;) {
      const stored = await storedBlocks(this.deps.db, row.id, below, FORK_STEP);
      for (const s of stored) {
        const header = await this.rpc.header(s.block);
        if (header && header.hash.toLowerCase() === s.hash.toLowerCase()) {
          fork = { block: s.block, hash: header.hash };
          break search;
        }
      }
      const oldest = stored[stored.length - 1];
      if (stored.length < FORK_STEP || !oldest) break;
      below = oldest.block - 1n;
    }
    if (fork.hash === null && fork.block >= 0n) fork.hash = (await this.rpc.header(fork.block))?.hash ?? null;
    const compiled = await this.compile(row);
    this.deps.log.warn(
      { contractId: row.id, checkpoint: row.lastBlock.toString(), fork: fork.block.toString() },
      'chain reorganised below the checkpoint: reading again from the fork',
    );
    await rewind(this.deps.db, row, fork, compiled.target.token, compiled.transferArgs);
  }

  private async fail(rows: WatchRow[], error: unknown): Promise<void> {
    const message = errorMessage(error);
    const at = this.deps.clock();
    for (const row of rows) await writeFailure(this.deps.db, row, message, at);
  }
}
