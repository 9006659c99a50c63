#!/usr/bin/env node
// `pnpm try <area> [--as <e-mail>] [--built]`: one area of the console on its own, for the team that
// owns it. Starts the gateway on a fresh embedded database (demo data), the area's remote (webpack dev
// server rebuilding on change; `--built` serves the existing build instead), and the shell as a minimal host
// that knows only that remote; signs in a demo user and prints one address that opens the area signed in.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { APPS, gatewayUrl, portOf } from './topology.mjs';
import { DEMO_LOGINS } from './demo-logins.mjs';
import { startApp, startGateway, stopOne, waitFor } from './system.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where each area opens, and who tries it by default (a platform admin for the admin area). */
export const AREAS = {
  engagement: { pkg: 'mfe-engagement', start: '/engagement/contacts', as: 'owner@acme.test' },
  onboarding: { pkg: 'mfe-onboarding', start: '/onboarding/widgets', as: 'owner@acme.test' },
  advertising: { pkg: 'mfe-advertising', start: '/advertising/emails', as: 'owner@acme.test' },
  account: { pkg: 'mfe-account', start: '/account/profile', as: 'owner@acme.test' },
  admin: { pkg: 'mfe-admin', start: '/tenants', as: 'admin@console.test' },
};

/** Signs the demo user in through the gateway's API and returns the session token. */
async function demoToken(gateway, email) {
  const login = DEMO_LOGINS.find(([, e]) => e === email);
  if (!login) throw new Error(`${email} is not a demo login (see scripts/demo-logins.mjs)`);
  const res = await fetch(`${gateway}/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: login[2] }),
  });
  if (!res.ok) throw new Error(`demo sign-in failed: ${res.status} ${await res.text()}`);
  return (await res.json()).token;
}

export async function tryArea(areaName, { as, built = false, env: overrides = {} } = {}) {
  const area = AREAS[areaName.replace(/^mfe-/, '')];
  if (!area) throw new Error(`unknown area ${areaName}: one of ${Object.keys(AREAS).join(', ')}`);
  const app = APPS.find((a) => a.pkg === area.pkg);
  const shell = APPS[0];
  const env = {
    ...process.env,
    QUIET: '1',
    GATEWAY_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), `console-try-${areaName}-`)),
    ...overrides,
  };
  env.CONSOLE_URL ??= `http://localhost:${portOf(shell, env)}`;
  env.CONSOLE_ORIGINS ??= env.CONSOLE_URL;
  env.PORT = String(new URL(gatewayUrl(env)).port);
  env.CONSOLE_REMOTES = app.name;
  env.TRY_START_PATH = area.start;
  if (!fs.existsSync(path.join(root, 'shell', 'dist', 'index.html'))) {
    spawnSync('pnpm', ['--filter', './shell', 'build'], { cwd: root, stdio: 'inherit' });
  }
  const procs = [startGateway(env)];
  const remoteUrl = `http://localhost:${portOf(app, env)}`;
  procs.push(
    built
      ? startApp(area.pkg, env)
      : // A production build that rebuilds on change (reload the page to see it): the shell hosting it is
        // a production build, and a development remote's React (jsx-dev-runtime) does not run with it;
        // no dev-server client either (its websocket is outside the shell's CSP).
        spawn(
          'pnpm',
          [
            'exec',
            'webpack',
            'serve',
            '--mode',
            'production',
            '--no-hot',
            '--no-live-reload',
            '--no-client',
            '--port',
            String(portOf(app, env)),
          ],
          {
            cwd: path.join(root, area.pkg),
            env,
            stdio: ['ignore', 'ignore', 'inherit'],
          },
        ),
  );
  const stop = () => Promise.all(procs.map(stopOne));
  // A first build of the remote takes a while on a small machine.
  const BUILD_MS = 180_000;
  try {
    await waitFor(`${gatewayUrl(env)}/health`);
    env.TRY_SIGN_IN_TOKEN = await demoToken(gatewayUrl(env), as ?? area.as);
    procs.push(startApp('shell', env));
    await Promise.all([waitFor(`${remoteUrl}/mf-manifest.json`, BUILD_MS), waitFor(`${env.CONSOLE_URL}/`)]);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    signInUrl: `${env.CONSOLE_URL}/try/sign-in`,
    shellUrl: env.CONSOLE_URL,
    remoteUrl,
    gateway: gatewayUrl(env),
    as: as ?? area.as,
    stop,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  const areaName = args.find((a) => !a.startsWith('--') && args[args.indexOf(a) - 1] !== '--as');
  if (!areaName) {
    console.error(`usage: pnpm try <${Object.keys(AREAS).join('|')}> [--as <demo e-mail>] [--built]`);
    process.exit(2);
  }
  const asIndex = args.indexOf('--as');
  const run = await tryArea(areaName, {
    as: asIndex >= 0 ? args[asIndex + 1] : undefined,
    built: args.includes('--built'),
  });
  console.log(`\n${areaName} on its own, signed in as ${run.as}:\n  open ${run.signInUrl}\n`);
  console.log(`  remote ${run.remoteUrl} · gateway ${run.gateway} · Ctrl+C stops everything`);
  const quit = () => run.stop().then(() => process.exit(0));
  process.on('SIGINT', quit);
  process.on('SIGTERM', quit);
}
