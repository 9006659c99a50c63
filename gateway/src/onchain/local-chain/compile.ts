/**
 * Compiles the DemoToken with solc-js (the compiler as WebAssembly, in-process: no download, no native
 * binary). `compileDemoToken()` always compiles from source; `demoTokenArtifact()` reuses a compiled
 * artifact cached on disk when its source and compiler version match, else compiles and writes it.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Abi, Hex } from 'viem';
import { DEMO_TOKEN_SOURCE } from './demo-token-source';

export interface CompiledContract {
  abi: Abi;
  bytecode: Hex;
  /** The compiler's version string, `0.8.x+commit.…`. */
  compiler: string;
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
}

interface Solc {
  compile: (input: string) => string;
  version: () => string;
}

const require = createRequire(import.meta.url);
let solc: Solc | undefined;
/** solc-js loads lazily: its WebAssembly compiler takes a moment to instantiate and most processes never need it. */
function compiler(): Solc {
  solc ??= require('solc') as Solc;
  return solc;
}

/** Compiles one Solidity source and returns the named contract's ABI and creation bytecode. */
export function compileSolidity(source: string, contract: string, file = `${contract}.sol`): CompiledContract {
  const solc = compiler();
  const input = {
    language: 'Solidity',
    sources: { [file]: { content: source } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      // anvil's default hardfork runs the latest EVM; paris avoids PUSH0 for chains that predate Shanghai.
      evmVersion: 'paris',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join('\n')}`);
  const compiled = output.contracts?.[file]?.[contract];
  if (!compiled) throw new Error(`solc: no contract ${contract} in ${file}`);
  return { abi: compiled.abi, bytecode: `0x${compiled.evm.bytecode.object}`, compiler: solc.version() };
}

/** Compiles DemoToken from its source. */
export function compileDemoToken(): CompiledContract {
  return compileSolidity(DEMO_TOKEN_SOURCE, 'DemoToken');
}

function installedSolcVersion(): string {
  return (require('solc/package.json') as { version: string }).version;
}

/**
 * DemoToken's artifact, from `cacheDir` (default: the OS's temporary directory) when one compiled from
 * this very source by this solc version is there; else compiled and cached (written whole, then renamed).
 */
export function demoTokenArtifact(cacheDir = path.join(os.tmpdir(), 'console-demo-token')): CompiledContract {
  const key = createHash('sha256').update(installedSolcVersion()).update('\0').update(DEMO_TOKEN_SOURCE).digest('hex');
  const file = path.join(cacheDir, `DemoToken-${key.slice(0, 16)}.json`);
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as CompiledContract;
  } catch {
    // not cached (or unreadable): compile
  }
  const artifact = compileDemoToken();
  try {
    fs.mkdirSync(cacheDir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(artifact));
    fs.renameSync(tmp, file);
  } catch {
    // a cache that cannot be written only costs a compile next time
  }
  return artifact;
}
