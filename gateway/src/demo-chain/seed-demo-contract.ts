import type { Database } from '../db/index';
import { watchedContracts } from '../db/schema';
import type { DemoChain } from './demo-chain-file';

/** The event the demo contract is watched for: balances are kept from it (ERC-20, EIP-20). */
export const DEMO_WATCHED_EVENTS = ['Transfer(address,address,uint256)'];

/**
 * Acme DAO watches the local chain's demo token (inside the seed's transaction): read from the block it
 * was deployed in, one confirmation; the watcher reads its decimals and symbol as for any token. Inserted
 * once; a contract already watched at that address is left as it is.
 */
export async function seedDemoContract(db: Database, tenantId: string, chain: DemoChain): Promise<void> {
  const start = BigInt(chain.token.deployBlock);
  await db
    .insert(watchedContracts)
    .values({
      tenantId,
      chainId: chain.chainId,
      address: chain.token.address,
      name: `${chain.token.symbol} token (local chain)`,
      abi: chain.token.abi,
      events: DEMO_WATCHED_EVENTS,
      startBlock: start,
      lastBlock: start - 1n,
      confirmations: 1,
    })
    .onConflictDoNothing();
}
