import type { ChildProcess } from 'node:child_process';
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
  >;
  stop(): Promise<void>;
  kill(pkg: string): Promise<void>;
  restart(pkg: string, extraEnv?: Record<string, string>): Promise<void>;
}
export function startSystem(overrides?: Record<string, string | undefined>): Promise<StartedSystem>;
export function startGateway(env: NodeJS.ProcessEnv): ChildProcess;
export function startApp(pkg: string, env: NodeJS.ProcessEnv): ChildProcess;
export function stopOne(p: ChildProcess): Promise<void>;
export function waitFor(url: string, ms?: number): Promise<void>;
