/**
 * The local development chain `npm start` runs (scripts/system.mjs starts `dist/demo-chain.mjs`): where
 * it answers and where its demo token is, written by the runner into the gateway's data directory and
 * read by the seed (Acme DAO watches the token) and by `pnpm chain:activity`.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface DemoChain {
  /** JSON-RPC URL of the chain. */
  url: string;
  chainId: number;
  token: {
    address: `0x${string}`;
    symbol: string;
    decimals: number;
    deployBlock: string;
    /** The token's ABI (JSON), as a person would paste it. */
    abi: unknown[];
  };
}

/** The folder of the chain's files (its state, dumped by anvil, and this description). */
export const demoChainDir = (dataDir: string) => path.join(dataDir, 'local-chain');
const fileOf = (dataDir: string) => path.join(demoChainDir(dataDir), 'demo-chain.json');

/** The chain the runner last started with this data directory, or null (never started, or unreadable). */
export function readDemoChain(dataDir: string): DemoChain | null {
  try {
    const raw = JSON.parse(fs.readFileSync(fileOf(dataDir), 'utf8')) as Partial<DemoChain>;
    const token = raw.token;
    if (typeof raw.url !== 'string' || typeof raw.chainId !== 'number' || !token) return null;
    if (!/^0x[0-9a-fA-F]{40}$/.test(token.address) || !/^\d+$/.test(token.deployBlock)) return null;
    if (!Array.isArray(token.abi)) return null;
    return { url: raw.url, chainId: raw.chainId, token };
  } catch {
    return null;
  }
}

/** Writes the description whole (a reader never sees half of it). */
export function writeDemoChain(dataDir: string, chain: DemoChain): void {
  fs.mkdirSync(demoChainDir(dataDir), { recursive: true });
  const file = fileOf(dataDir);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(chain, null, 2)}\n`);
  fs.renameSync(tmp, file);
}
