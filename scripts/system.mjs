// Starts the whole system as child processes: the gateway and one static server per app.
// Used by `npm start`, the e2e suites and the benchmarks, so all three run the same thing.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GATEWAY_DIR, gatewayArgs } from '../gateway/launch.mjs';
import { APPS, CHAIN, GATEWAY, INBOUND_SMTP, gatewayUrl, portOf } from './topology.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Stops a child process (SIGTERM) and resolves when it has exited. */
export function stopOne(p) {
  return new Promise((resolve) => {
    if (p.exitCode !== null || p.signalCode !== null) return resolve();
    p.once('exit', () => resolve());
    p.kill('SIGTERM');
  });
}

/** Resolves once `url` answers 2xx; throws after `ms`. */
export async function waitFor(url, ms = 60_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

/** The gateway from its production bundle, as every gateway process starts (gateway/launch.mjs). */
export function startGateway(env) {
  return spawn(process.execPath, gatewayArgs('main'), {
    cwd: GATEWAY_DIR,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

/**
 * The local development chain (gateway/src/demo-chain/): anvil on CHAIN_PORT with one-second blocks and
 * the demo token Acme DAO watches. Resolves with the chain's process and description once it is ready, or
 * with a warning when it cannot start (the rest of the system starts without it).
 * @returns {Promise<{ proc: import('node:child_process').ChildProcess | null, chain: { url: string, chainId: number, token: { address: string, symbol: string } } | null, warning: string | null }>}
 */
export function startLocalChain(env, ms = 60_000) {
  const proc = spawn(process.execPath, gatewayArgs('demo-chain-main'), {
    cwd: GATEWAY_DIR,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve) => {
    let out = '';
    let err = '';
    const give = (why) => {
      clearTimeout(timer);
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      // The runner's own line says what went wrong; else the last thing it printed.
      const lines = err.trim().split('\n');
      const said = lines.findLast((l) => l.startsWith('Local chain: '))?.slice('Local chain: '.length) ?? lines.at(-1);
      resolve({ proc: null, chain: null, warning: `${why}${said ? `: ${said}` : ''}` });
    };
    const timer = setTimeout(() => give(`the local chain did not start within ${ms / 1000} s`), ms);
    const onExit = (code) => give(`the local chain stopped (exit ${code})`);
    proc.stderr.on('data', (d) => (err = (err + d).slice(-4000)));
    proc.stdout.on('data', (d) => {
      out = (out + d).slice(-4000);
      const line = out.split('\n').find((l) => l.startsWith('LOCAL_CHAIN '));
      if (!line) return;
      clearTimeout(timer);
      // Ready: what it says from now on goes to the console as it is.
      proc.stdout.removeAllListeners('data');
      proc.stderr.removeAllListeners('data');
      proc.stdout.pipe(process.stdout);
      proc.stderr.pipe(process.stderr);
      proc.off('exit', onExit);
      resolve({ proc, chain: JSON.parse(line.slice('LOCAL_CHAIN '.length)), warning: null });
    });
    proc.once('exit', onExit);
  });
}

export function startApp(pkg, env) {
  return spawn(process.execPath, [path.join(root, 'scripts', 'serve.mjs'), pkg], {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

/**
 * @param {Record<string,string|undefined>} overrides environment (ports, GATEWAY_DATA_DIR, ...)
 * @returns {Promise<{ procs: Map<string, import('node:child_process').ChildProcess>, env: NodeJS.ProcessEnv, stop: () => Promise<void>, restart: (pkg: string) => Promise<void>, urls: Record<string,string>, chain: { url: string, chainId: number, token: { address: string, symbol: string } } | null }>}
 */
export async function startSystem(overrides = {}) {
  const env = { ...process.env, QUIET: '1', ...overrides };
  env.CONSOLE_URL ??= `http://localhost:${portOf(APPS[0], env)}`;
  env.CONSOLE_ORIGINS ??= env.CONSOLE_URL;
  env.PORT = String(env[GATEWAY.portEnv] ?? GATEWAY.port);
  env[INBOUND_SMTP.portEnv] ??= String(INBOUND_SMTP.port);
  env[CHAIN.portEnv] ??= String(CHAIN.port);
  env.LOCAL_CHAIN_URL ??= `http://127.0.0.1:${env[CHAIN.portEnv]}`;
  const procs = new Map();
  // The chain first: the gateway's first start seeds Acme DAO's watched contract of its demo token.
  const local = env.LOCAL_CHAIN === 'off' ? null : await startLocalChain(env);
  if (local?.proc) procs.set('chain', local.proc);
  if (local?.warning) {
    console.warn(
      `Warning: ${local.warning}. The console starts without it: Smart Contracts shows the chain's RPC as not answering.`,
    );
  }
  procs.set('gateway', startGateway(env));
  for (const app of APPS) procs.set(app.pkg, startApp(app.pkg, env));
  const urls = { gateway: gatewayUrl(env), inboundSmtp: `smtp://localhost:${env[INBOUND_SMTP.portEnv]}` };
  if (local?.chain) urls.chain = local.chain.url;
  for (const app of APPS) urls[app.pkg] = `http://localhost:${portOf(app, env)}`;
  await Promise.all([
    waitFor(`${urls.gateway}/health`),
    ...APPS.map((a) => waitFor(`${urls[a.pkg]}/${a.pkg === 'shell' ? '' : 'mf-manifest.json'}`)),
  ]);
  return {
    procs,
    env,
    urls,
    /** The local chain and its demo token; null when it is off or could not start. */
    chain: local?.chain ?? null,
    async stop() {
      await Promise.all([...procs.values()].map(stopOne));
    },
    /** Take one app down (e.g. to test a remote outage). */
    async kill(pkg) {
      await stopOne(procs.get(pkg));
    },
    /** Bring one app back (a redeploy: rebuild it first, then restart only its server). */
    async restart(pkg, extraEnv = {}) {
      await stopOne(procs.get(pkg));
      Object.assign(env, extraEnv);
      procs.set(pkg, startApp(pkg, env));
      const app = APPS.find((a) => a.pkg === pkg);
      await waitFor(`${urls[pkg]}/${app.pkg === 'shell' ? '' : 'mf-manifest.json'}`);
    },
  };
}
