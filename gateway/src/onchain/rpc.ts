/**
 * A chain's JSON-RPC as the watcher uses it: the head, block headers and raw logs (EIP-1474 methods
 * `eth_blockNumber`, `eth_getBlockByNumber`, `eth_getLogs`) through viem's http transport, with no
 * retries of its own (the watcher backs off itself), and what a failure means.
 */
import {
  type Address,
  type Hex,
  type PublicClient,
  createPublicClient,
  erc20Abi,
  http,
  HttpRequestError,
  RpcRequestError,
  TimeoutError,
} from 'viem';
import type { ChainSetting } from '../lib/chain-settings';

/** A log as `eth_getLogs` returns it (hex quantities); `blockTimestamp` where the node sends it. */
export interface RawLog {
  address: Hex;
  topics: Hex[];
  data: Hex;
  blockNumber: Hex;
  blockHash: Hex;
  blockTimestamp?: Hex;
  transactionHash: Hex;
  logIndex: Hex;
  removed?: boolean;
}

export interface BlockHeader {
  number: bigint;
  hash: Hex;
  timestamp: bigint;
}

export interface ChainRpc {
  chainId: number;
  head(): Promise<bigint>;
  /** The header of a block, or null when the chain has no such block (yet). */
  header(block: bigint): Promise<BlockHeader | null>;
  logs(filter: { addresses: Address[]; topics: Hex[]; from: bigint; to: bigint }): Promise<RawLog[]>;
  /** ERC-20 `decimals()` and `symbol()`; null for what the contract does not answer. */
  tokenInfo(address: Address): Promise<{ decimals: number | null; symbol: string | null }>;
  /** Whether `address` held code at `block` (the contract existed); true when the node cannot say. */
  hadCode(address: Address, block: bigint): Promise<boolean>;
  /** `balanceOf(wallet)` (EIP-20 and EIP-721) of each wallet at `block`, a few calls at a time. */
  balancesAt(address: Address, wallets: readonly string[], block: bigint): Promise<Map<string, bigint>>;
}

/** balanceOf calls in flight at once. */
const BALANCE_CALLS = 8;

const hex = (n: bigint): Hex => `0x${n.toString(16)}`;

export function chainRpc(chain: ChainSetting, timeoutMs: number): ChainRpc {
  const client: PublicClient = createPublicClient({
    transport: http(chain.rpcUrl, { retryCount: 0, timeout: timeoutMs, batch: false }),
  });
  return {
    chainId: chain.id,
    head: () => client.getBlockNumber({ cacheTime: 0 }),
    async header(block) {
      const raw = await client.request({ method: 'eth_getBlockByNumber', params: [hex(block), false] });
      if (!raw || !raw.hash) return null;
      return { number: BigInt(raw.number ?? hex(block)), hash: raw.hash, timestamp: BigInt(raw.timestamp) };
    },
    async logs({ addresses, topics, from, to }) {
      const result = await client.request({
        method: 'eth_getLogs',
        params: [{ address: addresses, topics: [topics], fromBlock: hex(from), toBlock: hex(to) }],
      });
      return result as unknown as RawLog[];
    },
    async tokenInfo(address) {
      const read = async <T>(functionName: 'decimals' | 'symbol'): Promise<T | null> => {
        try {
          return (await client.readContract({ address, abi: erc20Abi, functionName })) as T;
        } catch {
          return null;
        }
      };
      const [decimals, symbol] = await Promise.all([read<number>('decimals'), read<string>('symbol')]);
      return { decimals, symbol };
    },
    async hadCode(address, block) {
      try {
        const code = await client.getCode({ address, blockNumber: block });
        return Boolean(code && code !== '0x');
      } catch {
        return true;
      }
    },
    async balancesAt(address, wallets, block) {
      const balances = new Map<string, bigint>();
      for (let i = 0; i < wallets.length; i += BALANCE_CALLS) {
        const chunk = wallets.slice(i, i + BALANCE_CALLS);
        const read = await Promise.all(
          chunk.map((wallet) =>
            client.readContract({
              address,
              abi: erc20Abi,
              functionName: 'balanceOf',
              args: [wallet as Address],
              blockNumber: block,
            }),
          ),
        );
        chunk.forEach((wallet, j) => balances.set(wallet, read[j] ?? 0n));
      }
      return balances;
    },
  };
}

export type RpcFailure = 'rate_limited' | 'too_many_results' | 'failed';

/**
 * What a failed RPC request means for the watcher: a rate limit (HTTP 429, JSON-RPC -32005 or a
 * message saying so) and other failures back off; "too many results" (the node's cap on one
 * `eth_getLogs`, by results or by block range) asks for a smaller range.
 */
export function rpcFailure(error: unknown): RpcFailure {
  const message = errorMessage(error).toLowerCase();
  if (
    /more than \d+ results|too many (results|logs)|response size|query returned more|block range|range (is )?too (large|wide)|exceed(s|ed)? (the )?max(imum)? (block )?range|limit exceeded.*logs/.test(
      message,
    )
  )
    return 'too_many_results';
  if (error instanceof HttpRequestError && error.status === 429) return 'rate_limited';
  if (error instanceof RpcRequestError && error.code === -32005) return 'rate_limited';
  if (/rate limit|too many requests|429/.test(message)) return 'rate_limited';
  return 'failed';
}

/** The RPC's message as the console shows it: the node's own words, without viem's request dump. */
export function errorMessage(error: unknown): string {
  if (error instanceof TimeoutError) return 'The RPC did not answer in time.';
  if (error instanceof HttpRequestError) {
    const details = error.details && error.details !== error.shortMessage ? `: ${error.details}` : '';
    return `${error.status ? `HTTP ${error.status}` : 'HTTP request failed'}${details}`.slice(0, 500);
  }
  if (error && typeof error === 'object' && 'details' in error && typeof error.details === 'string' && error.details)
    return error.details.slice(0, 500);
  if (error && typeof error === 'object' && 'shortMessage' in error && typeof error.shortMessage === 'string')
    return error.shortMessage.slice(0, 500);
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}
