/**
 * The on-chain area's settings (onchain/; README's settings table; docs/onchain.md): the chains the
 * gateway reads and the watcher's pace. A pure parse of the environment, called by config.ts.
 */

type Env = Record<string, string | undefined>;

export interface ChainSetting {
  id: number;
  name: string;
  rpcUrl: string;
  /** `https://…` of a block explorer (a transaction's page is `{explorerUrl}/tx/{hash}`), or null. */
  explorerUrl: string | null;
}

export interface OnchainConfig {
  /** CHAINS, else the local development chain at LOCAL_CHAIN_URL. */
  chains: ChainSetting[];
  /** ONCHAIN_POLL_MS: how often the watcher asks a chain for its head (default 250 ms). */
  pollMs: number;
  /** ONCHAIN_MAX_RANGE: the most blocks one `eth_getLogs` asks for (default 2,000; it shrinks on "too many results"). */
  maxRange: number;
  /** ONCHAIN_BACKOFF_MAX_SECONDS: the longest wait after failed reads (doubling from 1 s; default 300). */
  backoffMaxSeconds: number;
  /** ONCHAIN_RPC_TIMEOUT_MS: one RPC request's whole time (default 10 s). */
  rpcTimeoutMs: number;
  /** ONCHAIN_SLICE_SECONDS: how long one watch job runs before it hands over to the next (default 60). */
  sliceSeconds: number;
}

export const LOCAL_CHAIN_ID = 31337;
export const DEFAULT_LOCAL_CHAIN_URL = 'http://127.0.0.1:8545';

function problem(message: string): Error {
  return new Error(`CHAINS: ${message}`);
}

function httpUrl(value: unknown, what: string): string {
  if (typeof value !== 'string') throw problem(`${what} must be a URL`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw problem(`${what} must be a URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw problem(`${what} must be http(s), got "${value}"`);
  return value.replace(/\/+$/, '');
}

/** CHAINS: a JSON array of `{id, name, rpc_url, explorer_url?}`; unset: the local development chain. */
export function chainsOf(env: Env): ChainSetting[] {
  const raw = env.CHAINS?.trim();
  if (!raw) {
    return [
      {
        id: LOCAL_CHAIN_ID,
        name: 'Local chain',
        rpcUrl: httpUrl(env.LOCAL_CHAIN_URL || DEFAULT_LOCAL_CHAIN_URL, 'LOCAL_CHAIN_URL'),
        explorerUrl: null,
      },
    ];
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw problem('must be a JSON array of {id, name, rpc_url, explorer_url?}');
  }
  if (!Array.isArray(parsed)) throw problem('must be a JSON array of {id, name, rpc_url, explorer_url?}');
  const chains = parsed.map((item: unknown, i): ChainSetting => {
    if (!item || typeof item !== 'object') throw problem(`entry ${i} must be an object`);
    const { id, name, rpc_url, explorer_url } = item as Record<string, unknown>;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0)
      throw problem(`entry ${i}: id must be a positive integer (the chain id)`);
    if (typeof name !== 'string' || !name.trim()) throw problem(`entry ${i}: name must be a text`);
    return {
      id,
      name: name.trim(),
      rpcUrl: httpUrl(rpc_url, `entry ${i}: rpc_url`),
      explorerUrl:
        explorer_url == null || explorer_url === '' ? null : httpUrl(explorer_url, `entry ${i}: explorer_url`),
    };
  });
  const ids = chains.map((c) => c.id);
  if (new Set(ids).size !== ids.length) throw problem('two entries have the same id');
  return chains;
}

function positive(env: Env, name: string, fallback: number, least: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < least) throw new Error(`${name} must be a number of at least ${least}, got "${raw}"`);
  return Math.floor(n);
}

export function onchainConfigOf(env: Env): OnchainConfig {
  return {
    chains: chainsOf(env),
    pollMs: positive(env, 'ONCHAIN_POLL_MS', 250, 10),
    maxRange: positive(env, 'ONCHAIN_MAX_RANGE', 2000, 1),
    backoffMaxSeconds: positive(env, 'ONCHAIN_BACKOFF_MAX_SECONDS', 300, 1),
    rpcTimeoutMs: positive(env, 'ONCHAIN_RPC_TIMEOUT_MS', 10_000, 100),
    sliceSeconds: positive(env, 'ONCHAIN_SLICE_SECONDS', 60, 1),
  };
}
