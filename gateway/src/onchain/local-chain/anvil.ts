/**
 * A local Ethereum chain for development and tests: anvil (Foundry) from the `@foundry-rs/anvil` npm
 * package, whose platform binary comes as an optional dependency. The binary is spawned directly (not
 * through the package's node wrapper), so stopping it stops the chain.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface AnvilOptions {
  /** The port to listen on (127.0.0.1). */
  port: number;
  /** Seconds between mined blocks; unset: a block per transaction (automine). */
  blockTime?: number;
  /** Chain id; anvil's default is 31337. */
  chainId?: number;
  /** Extra command-line arguments. */
  args?: string[];
}

export interface LocalChain {
  url: string;
  port: number;
  proc: ChildProcess;
  /** Stops anvil and resolves once it exited. */
  stop: () => Promise<void>;
}

const require = createRequire(import.meta.url);

/** The anvil binary of this platform, from the optional dependency `@foundry-rs/anvil-<platform>-<arch>`. */
export function anvilBinary(): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const platform = process.platform;
  const name = platform === 'win32' ? 'anvil.exe' : 'anvil';
  const wrapper = path.dirname(require.resolve('@foundry-rs/anvil/package.json'));
  const pkg = `@foundry-rs/anvil-${platform}-${arch}`;
  const binary = require.resolve(`${pkg}/bin/${name}`, { paths: [wrapper] });
  if (!fs.existsSync(binary)) throw new Error(`anvil: ${pkg} is not installed`);
  return binary;
}

/** Starts anvil and resolves once it answers JSON-RPC on `port`. */
export async function startAnvil(options: AnvilOptions): Promise<LocalChain> {
  const args = ['--host', '127.0.0.1', '--port', String(options.port), '--silent'];
  if (options.blockTime !== undefined) args.push('--block-time', String(options.blockTime));
  if (options.chainId !== undefined) args.push('--chain-id', String(options.chainId));
  args.push(...(options.args ?? []));
  const proc = spawn(anvilBinary(), args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) resolve();
    else proc.once('exit', () => resolve());
  });
  const url = `http://127.0.0.1:${options.port}`;
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null)
      throw new Error(`anvil exited (${proc.exitCode ?? proc.signalCode}): ${stderr.trim()}`);
    if (await answers(url)) return { url, port: options.port, proc, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`anvil did not answer on ${url}: ${stderr.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(1000),
    });
    return res.ok;
  } catch {
    return false;
  }
}
