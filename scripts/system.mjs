// Starts the whole system as child processes: the gateway and one static server per app.
// Used by `npm start`, the e2e suites and the benchmarks, so all three run the same thing.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GATEWAY_DIR, gatewayArgs } from '../gateway/launch.mjs';
import { APPS, GATEWAY, INBOUND_SMTP, gatewayUrl, portOf } from './topology.mjs';

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

export function startApp(pkg, env) {
  return spawn(process.execPath, [path.join(root, 'scripts', 'serve.mjs'), pkg], {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

/**
 * @param {Record<string,string|undefined>} overrides environment (ports, GATEWAY_DATA_DIR, ...)
 * @returns {Promise<{ procs: Map<string, import('node:child_process').ChildProcess>, env: NodeJS.ProcessEnv, stop: () => Promise<void>, restart: (pkg: string) => Promise<void>, urls: Record<string,string> }>}
 */
export async function startSystem(overrides = {}) {
  const env = { ...process.env, QUIET: '1', ...overrides };
  env.CONSOLE_URL ??= `http://localhost:${portOf(APPS[0], env)}`;
  env.CONSOLE_ORIGINS ??= env.CONSOLE_URL;
  env.PORT = String(env[GATEWAY.portEnv] ?? GATEWAY.port);
  env[INBOUND_SMTP.portEnv] ??= String(INBOUND_SMTP.port);
  const procs = new Map();
  procs.set('gateway', startGateway(env));
  for (const app of APPS) procs.set(app.pkg, startApp(app.pkg, env));
  const urls = { gateway: gatewayUrl(env), inboundSmtp: `smtp://localhost:${env[INBOUND_SMTP.portEnv]}` };
  for (const app of APPS) urls[app.pkg] = `http://localhost:${portOf(app, env)}`;
  await Promise.all([
    waitFor(`${urls.gateway}/health`),
    ...APPS.map((a) => waitFor(`${urls[a.pkg]}/${a.pkg === 'shell' ? '' : 'mf-manifest.json'}`)),
  ]);
  return {
    procs,
    env,
    urls,
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
