/**
 * Decoding a watched contract's logs (Solidity ABI, events): only the events the contract watches,
 * each into named arguments (integers as decimal strings), the wallets among its address arguments
 * (lower-case), and, for a token's Transfer, the amount moved. Logs are decoded in slices that give
 * the event loop back between them.
 */
import { type AbiEvent as ViemAbiEvent, type Hex, decodeAbiParameters, toEventSelector, toEventSignature } from 'viem';
import { yieldToRequests } from '../db/storage';
import type { RawLog } from './rpc';
import { TRANSFER_SIGNATURE, type TokenKind, ZERO_ADDRESS } from './rules';

export interface WatchedEventSet {
  /** topic0 (the event's selector) -> the ABI item of a watched event. */
  byTopic: Map<Hex, ViemAbiEvent>;
  topics: Hex[];
  /** The selector of `Transfer(address,address,uint256)` when it is watched. */
  transferTopic: Hex | null;
}

/** The watched events of an ABI (items as pasted) by their selector. */
export function watchedEventSet(abi: unknown, watched: readonly string[]): WatchedEventSet {
  const items = Array.isArray(abi) ? abi : [];
  const byTopic = new Map<Hex, ViemAbiEvent>();
  let transferTopic: Hex | null = null;
  for (const item of items as { type?: unknown; anonymous?: unknown }[]) {
    if (!item || item.type !== 'event' || item.anonymous === true) continue;
    const event = item as ViemAbiEvent;
    let signature: string;
    try {
      signature = toEventSignature(event);
    } catch {
      continue;
    }
    if (!watched.includes(signature)) continue;
    const selector = toEventSelector(event);
    byTopic.set(selector, event);
    if (signature === TRANSFER_SIGNATURE) transferTopic = selector;
  }
  return { byTopic, topics: [...byTopic.keys()], transferTopic };
}

export type ArgValue = string | boolean | string[];

export interface DecodedEvent {
  contractId: string;
  eventName: string;
  args: Record<string, ArgValue>;
  /** Address arguments but the zero address: the argument's name and the wallet (lower-case), once per wallet. */
  wallets: { argument: string; wallet: string }[];
  blockNumber: bigint;
  blockHash: Hex;
  /** Seconds since the epoch (the block's timestamp). */
  blockTimestamp: bigint | null;
  txHash: Hex;
  logIndex: number;
  /** A Transfer of a token whose balances are kept. */
  transfer: { from: string; to: string; value: bigint } | null;
}

function plain(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean' || typeof value === 'number') return String(value);
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

function argValue(value: unknown): ArgValue {
  if (typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map(plain);
  return plain(value);
}

const DYNAMIC = /^(string|bytes|tuple)$|\[/;

/**
 * An event's argument values in the ABI's order (Solidity ABI spec, "Events"): indexed arguments from
 * the topics (a dynamic type's topic is its hash, kept as the hex), the others from the data. The
 * selector was matched already, so it is not hashed again per log. Null when the log does not fit.
 */
function decodeValues(item: ViemAbiEvent, log: RawLog): unknown[] | null {
  try {
    const indexed = item.inputs.filter((i) => i.indexed);
    if (log.topics.length !== indexed.length + 1) return null;
    const data = item.inputs.filter((i) => !i.indexed);
    const fromData = data.length > 0 ? decodeAbiParameters(data, log.data) : [];
    let t = 1;
    let d = 0;
    return item.inputs.map((input) => {
      if (!input.indexed) return fromData[d++];
      const topic = log.topics[t++] as Hex;
      return DYNAMIC.test(input.type) ? topic : decodeAbiParameters([input], topic)[0];
    });
  } catch {
    return null;
  }
}

/** Decodes one log against a contract's watched events; null when it is not one of them (or malformed). */
export function decodeLog(
  contractId: string,
  set: WatchedEventSet,
  token: TokenKind | null,
  log: RawLog,
): DecodedEvent | null {
  const topic0 = log.topics[0]?.toLowerCase() as Hex | undefined;
  const item = topic0 ? set.byTopic.get(topic0) : undefined;
  if (!item || log.removed) return null;
  const values = decodeValues(item, log);
  if (!values) return null;
  const args: Record<string, ArgValue> = {};
  const wallets: { argument: string; wallet: string }[] = [];
  item.inputs.forEach((input, i) => {
    const name = input.name || `_${i}`;
    const value = values[i];
    args[name] = argValue(value);
    if (input.type === 'address' && typeof value === 'string') {
      const wallet = value.toLowerCase();
      // The zero address is nobody's wallet (a mint's sender, a burn's receiver).
      if (wallet !== ZERO_ADDRESS && !wallets.some((w) => w.wallet === wallet))
        wallets.push({ argument: name, wallet });
    }
  });
  let transfer: DecodedEvent['transfer'] = null;
  if (token && set.transferTopic === topic0) {
    const [from, to, value] = values as [string, string, bigint];
    transfer = { from: from.toLowerCase(), to: to.toLowerCase(), value };
  }
  return {
    contractId,
    eventName: item.name,
    args,
    wallets,
    blockNumber: BigInt(log.blockNumber),
    blockHash: log.blockHash.toLowerCase() as Hex,
    blockTimestamp: log.blockTimestamp ? BigInt(log.blockTimestamp) : null,
    txHash: log.transactionHash.toLowerCase() as Hex,
    logIndex: Number(BigInt(log.logIndex)),
    transfer,
  };
}

/** Logs decoded per slice between turns of the event loop. */
export const DECODE_SLICE = 100;

export interface DecodeTarget {
  id: string;
  set: WatchedEventSet;
  token: TokenKind | null;
}

/**
 * Decodes logs of several contracts (matched by address, lower-case) in slices of DECODE_SLICE,
 * yielding to requests between slices. Logs of other contracts or events are left out.
 */
export async function decodeLogs(
  logs: readonly RawLog[],
  byAddress: Map<string, DecodeTarget>,
): Promise<DecodedEvent[]> {
  const out: DecodedEvent[] = [];
  for (let i = 0; i < logs.length; i++) {
    if (i > 0 && i % DECODE_SLICE === 0) await yieldToRequests();
    const log = logs[i];
    if (!log) continue;
    const target = byAddress.get(log.address.toLowerCase());
    if (!target) continue;
    const event = decodeLog(target.id, target.set, target.token, log);
    if (event) out.push(event);
  }
  return out;
}
