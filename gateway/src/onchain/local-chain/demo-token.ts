/**
 * Deploying DemoToken on a chain with viem, and minting and transferring it: what `npm start` seeds and
 * what the tests and benchmarks drive the watcher with. Accounts are anvil's well-known development
 * accounts (never funded anywhere else).
 */
import {
  type Abi,
  type Address,
  type Hash,
  type PublicClient,
  type WalletClient,
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  http,
} from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { type CompiledContract, demoTokenArtifact } from './compile';

/** anvil's default mnemonic: its ten funded development accounts. */
export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';

/** anvil's development account `index` (0 deploys and mints). */
export function devAccount(index = 0) {
  return mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index });
}

export function localChainDefinition(url: string, id = 31337) {
  return defineChain({
    id,
    name: 'Local chain',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });
}

export interface ChainClients {
  public: PublicClient;
  wallet: WalletClient;
}

/** A public and a wallet client (account `index`) on the chain at `url`. */
export function chainClients(url: string, index = 0, chainId = 31337): ChainClients {
  const chain = localChainDefinition(url, chainId);
  const transport = http(url, { batch: false, retryCount: 0 });
  return {
    public: createPublicClient({ chain, transport, pollingInterval: 50 }),
    wallet: createWalletClient({ chain, transport, account: devAccount(index) }),
  };
}

export interface DemoToken {
  /** EIP-55 checksummed. */
  address: Address;
  abi: Abi;
  /** The block it was deployed in. */
  deployBlock: bigint;
}

/** Deploys DemoToken (name, symbol) from account 0 and waits for its receipt. */
export async function deployDemoToken(
  url: string,
  options: { name?: string; symbol?: string; artifact?: CompiledContract; chainId?: number } = {},
): Promise<DemoToken> {
  const artifact = options.artifact ?? demoTokenArtifact();
  const clients = chainClients(url, 0, options.chainId);
  const account = devAccount(0);
  const hash = await clients.wallet.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    args: [options.name ?? 'Demo Token', options.symbol ?? 'DEMO'],
    account,
    chain: clients.wallet.chain,
  });
  const receipt = await clients.public.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  if (!receipt.contractAddress) throw new Error('DemoToken: no contract address in the receipt');
  return { address: getAddress(receipt.contractAddress), abi: artifact.abi, deployBlock: receipt.blockNumber };
}

async function send(
  url: string,
  token: DemoToken,
  from: number,
  functionName: string,
  args: unknown[],
  wait: boolean,
  chainId?: number,
): Promise<Hash> {
  const clients = chainClients(url, from, chainId);
  const hash = await clients.wallet.writeContract({
    address: token.address,
    abi: token.abi,
    functionName,
    args,
    account: devAccount(from),
    chain: clients.wallet.chain,
  });
  if (wait) await clients.public.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  return hash;
}

/** Mints `amount` (smallest unit) to `to` (deployer only); waits for the receipt unless `wait` is false. */
export function mintDemoToken(url: string, token: DemoToken, to: Address, amount: bigint, wait = true): Promise<Hash> {
  return send(url, token, 0, 'mint', [to, amount], wait);
}

/** Mints `amount` to each of `to` in one transaction (one Transfer event each). */
export function mintManyDemoToken(
  url: string,
  token: DemoToken,
  to: Address[],
  amount: bigint,
  wait = true,
): Promise<Hash> {
  return send(url, token, 0, 'mintMany', [to, amount], wait);
}

/** Transfers `amount` from development account `from` to `to`. */
export function transferDemoToken(
  url: string,
  token: DemoToken,
  from: number,
  to: Address,
  amount: bigint,
  wait = true,
): Promise<Hash> {
  return send(url, token, from, 'transfer', [to, amount], wait);
}
