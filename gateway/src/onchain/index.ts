import type { Area } from '../area';
import type { Deps } from '../deps';
import type { ContractStoreDeps } from './contract-store';
import { registerOnchainJobs } from './jobs';
import { onchainRoutes } from './routes';
import { chainRpc, type ChainRpc } from './rpc';
import type { ChainWatcher } from './watcher';

/** How long the routes wait for a chain's head (the chain list, a start block by default). */
const HEAD_TIMEOUT_MS = 1_000;

/** The area's shared state in one composition root: the routes' view of the chains and this process's watchers. */
export interface OnchainContext {
  store: ContractStoreDeps;
  watchers: Map<number, ChainWatcher>;
}

declare module '../deps' {
  interface Deps {
    onchain?: OnchainContext;
  }
}

function contextOf(deps: Deps): OnchainContext {
  if (deps.onchain) return deps.onchain;
  const { chains } = deps.config.onchain;
  const rpcs = new Map<number, ChainRpc>(chains.map((c) => [c.id, chainRpc(c, HEAD_TIMEOUT_MS)]));
  const watchers = new Map<number, ChainWatcher>();
  deps.onchain = {
    watchers,
    store: {
      db: deps.db,
      chains,
      head: async (chainId) => {
        try {
          return (await rpcs.get(chainId)?.head()) ?? null;
        } catch {
          return null;
        }
      },
      changed: (chainId) => watchers.get(chainId)?.wake(),
    },
  };
  return deps.onchain;
}

/**
 * Smart-contract monitoring (spec section 2: engagement/smart-contracts; docs/onchain.md): the
 * tenant's watched contracts, the watcher that reads their confirmed events into the feed, wallet
 * events, token balances and first-seen wallets (what on-chain segments read), and the local
 * development chain (local-chain/).
 */
export const onchainArea: Area = {
  routes: async (app) => {
    await app.register(onchainRoutes(contextOf(app.deps).store), { prefix: '/v1/onchain' });
  },
  jobs: (jobs, deps) => {
    const ctx = contextOf(deps);
    registerOnchainJobs(
      jobs,
      { db: deps.db, config: deps.config.onchain, clock: deps.clock, log: deps.log },
      ctx.watchers,
    );
  },
};

export { onchainConfigOf, type ChainSetting, type OnchainConfig } from '../lib/chain-settings';
