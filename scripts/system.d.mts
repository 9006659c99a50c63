import type { ChildProcess } from 'node:child_process';
export interface StartedSystem {
  procs: Map<string, ChildProcess>;
  env: NodeJS.ProcessEnv;
  urls: Record<string, string>;
  stop(): Promise<void>;
  kill(pkg: string): Promise<void>;
  restart(pkg: string): Promise<void>;
}
export function startSystem(overrides?: Record<string, string | undefined>): Promise<StartedSystem>;
