/**
 * Real gateway processes for the tests that kill one (SIGKILL) or run two on one PostgreSQL server:
 * a free port, a database of their own on the test server, a child process started and awaited on
 * /health, and its exit.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import { GATEWAY_DIR, gatewayArgs } from '../launch.mjs';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A fresh database on the PostgreSQL server at `adminUrl`: its URL and how to drop it. */
export async function scratchDatabase(
  adminUrl: string,
  prefix: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists "${name}" with (force)`) };
}

export interface GatewayProcess {
  proc: ChildProcess;
  url: string;
  /** Everything it printed so far. */
  output: () => string;
}

/**
 * A gateway entry (`main`, `workers` or a TypeScript fixture) spawned with `env` on `databaseUrl` (else
 * PGlite), its output gathered; resolves once `ready` says so, or throws when it exits first.
 */
async function spawnEntry(
  entry: Parameters<typeof gatewayArgs>[0],
  env: NodeJS.ProcessEnv,
  databaseUrl: string | null,
  ready: (output: string) => Promise<boolean> | boolean,
): Promise<{ proc: ChildProcess; output: () => string }> {
  // A process finds its own pool worker (beside its bundle, or the sources'), not this test file's.
  const { TEST_OFF_LOOP_WORKER: _ours, ...inherited } = process.env;
  const childEnv: NodeJS.ProcessEnv = { ...inherited, QUIET: '1', ...env };
  delete childEnv.DATABASE_URL;
  if (databaseUrl) childEnv.DATABASE_URL = databaseUrl;
  // GATEWAY_CPU_PROF=<dir>: the process writes a V8 CPU profile there when it exits (benchmarks).
  const profile = process.env.GATEWAY_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.GATEWAY_CPU_PROF}`] : [];
  const proc = spawn(process.execPath, gatewayArgs(entry, profile), {
    cwd: GATEWAY_DIR,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  proc.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const end = Date.now() + 120_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${entry} exited (${proc.exitCode}):\n${output}`);
    if (await ready(output)) return { proc, output: () => output };
    if (Date.now() > end) throw new Error(`${entry} did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Starts a gateway on a free port, on `databaseUrl` or else the PGlite in `env.GATEWAY_DATA_DIR`, and
 * resolves once /health answers: `main`, the production bundle as `npm start` runs it (launch.mjs),
 * or a TypeScript file relative to gateway/ (a test fixture).
 */
export async function startGatewayProcess(
  entry: Parameters<typeof gatewayArgs>[0],
  env: NodeJS.ProcessEnv,
  databaseUrl: string | null,
): Promise<GatewayProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const listening = async () => {
    try {
      return (await fetch(`${url}/health`)).ok;
    } catch {
      return false; // not listening yet
    }
  };
  const started = await spawnEntry(
    entry,
    { ...env, PORT: String(port), GATEWAY_PORT: String(port) },
    databaseUrl,
    listening,
  );
  return { ...started, url };
}

/**
 * Starts a job-workers process (`src/workers.ts`, as `pnpm --filter ./gateway run workers` runs it) on
 * the PostgreSQL database at `databaseUrl`, and resolves once it says its workers run.
 */
export async function startWorkerProcess(env: NodeJS.ProcessEnv, databaseUrl: string): Promise<GatewayProcess> {
  const started = await spawnEntry('workers', env, databaseUrl, (output) => output.includes('Job workers running'));
  return { ...started, url: '' };
}

export function exited(proc: ChildProcess): Promise<void> {
  return proc.exitCode !== null || proc.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => proc.once('exit', () => resolve()));
}
