import type { ChildProcess } from 'node:child_process';
/** The local chain `startSystem` started, and its demo token (gateway/src/demo-chain/). */
export interface LocalChainInfo {
  url: string;
  chainId: number;
  token: { address: string; symbol: string; decimals: number; deployBlock: string };
}
export interface StartedSystem {
  procs: Map<string, ChildProcess>;
  env: NodeJS.ProcessEnv;
  urls: Record<
    | 'gateway'
    | 'inboundSmtp'
    | 'shell'
    | 'mfe-engagement'
    | 'mfe-onboarding'
    | 'mfe-advertising'
    | 'mfe-account'
    | 'mfe-admin'
    | 'applets/token-gate',
    string
  > & { chain?: string };
  /** The local chain; null when it is off (LOCAL_CHAIN=off) or could not start. */
  chain: LocalChainInfo | null;
  stop(): Promise<void>;
  kill(pkg: string): Promise<void>;
  restart(pkg: string, extraEnv?: Record<string, string>): Promise<void>;
}
export function startSystem(overrides?: Record<string, string | undefined>): Promise<StartedSystem>;
export function startGateway(env: NodeJS.ProcessEnv): ChildProcess;
export function startLocalChain(
  env: NodeJS.ProcessEnv,
  ms?: number,
): Promise<{ proc: ChildProcess | null; chain: LocalChainInfo | null; warning: string | null }>;
export function startApp(pkg: string, env: NodeJS.ProcessEnv): ChildProcess;
export function stopOne(p: ChildProcess): Promise<void>;
export function waitFor(url: string, ms?: number): Promise<void>;
