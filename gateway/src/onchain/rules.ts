/**
 * The watcher's rules as pure functions (docs/onchain.md): which blocks are confirmed, the next range
 * to read, how the range size adapts, how long to back off, and whether a contract's Transfer events
 * keep balances.
 */
import type { AbiEvent } from '../contracts';

/**
 * The newest block with `confirmations` confirmations at `head` (the block a log is in counts as its
 * first confirmation): head - confirmations + 1. Only blocks up to it are read.
 */
export function safeHead(head: bigint, confirmations: number): bigint {
  return head - BigInt(confirmations) + 1n;
}

/** The next blocks to read after the checkpoint `lastBlock`, at most `size` of them; null when none is confirmed yet. */
export function nextRange(lastBlock: bigint, safe: bigint, size: number): { from: bigint; to: bigint } | null {
  const from = lastBlock + 1n;
  if (from > safe) return null;
  const end = lastBlock + BigInt(Math.max(1, size));
  return { from, to: end < safe ? end : safe };
}

/**
 * Logs one range should bring back at most: past it the range halves, under a quarter of it it doubles.
 * The answer is parsed on the event loop (about 0.7 KB of JSON a log), so this bounds one parse.
 */
export const LOGS_PER_RANGE = 1_000;

/** A contract's first range: one block, doubling while ranges bring few logs (the chain's density is unknown). */
export const FIRST_RANGE = 1;

/**
 * The next range size: halved after a "too many results" answer (or a range that brought more than
 * LOGS_PER_RANGE logs), doubled (up to `max`) after one that brought few, else kept.
 */
export function nextRangeSize(size: number, max: number, outcome: 'too_many' | { logs: number }): number {
  if (outcome === 'too_many') return Math.max(1, Math.floor(size / 2));
  if (outcome.logs > LOGS_PER_RANGE) return Math.max(1, Math.floor(size / 2));
  if (outcome.logs < LOGS_PER_RANGE / 4) return Math.min(max, size * 2);
  return Math.min(max, size);
}

/** The wait after `failures` consecutive failed reads: 1 s, 2 s, 4 s … up to `maxSeconds`. */
export function backoffMs(failures: number, maxSeconds: number): number {
  if (failures <= 0) return 0;
  return Math.min(1000 * 2 ** Math.min(failures - 1, 30), maxSeconds * 1000);
}

/** Whether a contract whose last failure was at `errorAt` may be read again at `now`. */
export function backoffOver(failures: number, errorAt: Date | null, now: Date, maxSeconds: number): boolean {
  if (failures <= 0 || !errorAt) return true;
  return now.getTime() - errorAt.getTime() >= backoffMs(failures, maxSeconds);
}

export type TokenKind = 'erc20' | 'erc721';

export const TRANSFER_SIGNATURE = 'Transfer(address,address,uint256)';

/**
 * Balances are kept when the watched events include `Transfer(address,address,uint256)`: ERC-20
 * (EIP-20) when its amount is not indexed, ERC-721 (EIP-721) when the token id is (each transfer moves
 * one token).
 */
export function tokenKindOf(abiEvents: readonly AbiEvent[], watched: readonly string[]): TokenKind | null {
  if (!watched.includes(TRANSFER_SIGNATURE)) return null;
  const transfer = abiEvents.find((e) => e.signature === TRANSFER_SIGNATURE);
  if (!transfer || transfer.inputs.length !== 3) return null;
  const [from, to, value] = transfer.inputs;
  if (!from?.indexed || !to?.indexed) return null;
  return value?.indexed ? 'erc721' : 'erc20';
}

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/**
 * The balance changes of Transfer events, per wallet (lower-case), in the token's smallest unit: the
 * sender loses the amount (ERC-721: one token), the receiver gains it; the zero address (mints and
 * burns) keeps no balance.
 */
export function transferDeltas(
  kind: TokenKind,
  transfers: readonly { from: string; to: string; value: bigint }[],
): Map<string, bigint> {
  const deltas = new Map<string, bigint>();
  const add = (wallet: string, amount: bigint) => {
    if (wallet === ZERO_ADDRESS) return;
    deltas.set(wallet, (deltas.get(wallet) ?? 0n) + amount);
  };
  for (const t of transfers) {
    const amount = kind === 'erc721' ? 1n : t.value;
    add(t.from, -amount);
    add(t.to, amount);
  }
  return deltas;
}
