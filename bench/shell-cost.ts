// Shell cost: JS and CSS bytes and requests needed to show the login page, and the same for the
// overview after sign-in, measured from what Chromium actually fetched: the bytes on the wire as the
// servers sent them (precompressed, by Accept-Encoding), and the bodies' raw, gzip and brotli sizes.
//
// Next to it, the same shell built as one ordinary bundle without Module Federation
// (bench/plain-shell/webpack.config.cjs), served by the same server, to show what federation itself
// costs the login page.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import type { Browser } from 'playwright-core';
import { newSession } from '../e2e/lib/browser.ts';
import { createAppServer } from '../scripts/serve.mjs';
import { APPS } from '../scripts/topology.mjs';
import { benchSystemEnv, kib, table } from './lib.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PLAIN_DIST = path.join(root, 'bench', 'dist', 'plain-shell');

interface Fetched {
  url: string;
  type: 'js' | 'css' | 'other';
  body: Buffer;
  /** Body bytes as received (after Content-Encoding), from Chromium's own accounting. */
  wire: number;
}

async function collect(browser: Browser, shellUrl: string, signIn: boolean): Promise<Fetched[]> {
  const { page, context } = await newSession(browser, shellUrl);
  const fetched: Fetched[] = [];
  let recording = !signIn;
  page.on('response', async (res) => {
    if (!recording) return;
    const url = res.url();
    const type = /\.m?js(\?|$)/.test(url) ? 'js' : /\.css(\?|$)/.test(url) ? 'css' : 'other';
    let body: Buffer = Buffer.alloc(0);
    try {
      body = await res.body();
    } catch {
      /* no body (redirect, aborted) */
    }
    const wire = await res
      .request()
      .sizes()
      .then((s) => s.responseBodySize)
      .catch(() => body.length);
    fetched.push({ url, type, body, wire });
  });
  if (signIn) {
    // Sign in through the API, then measure a cold load of the overview (fresh cache).
    const r = await fetch(
      `${shellUrl.replace(/:\d+$/, ':' + (process.env.BENCH_GATEWAY_PORT ?? '4200'))}/v1/auth/login`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'owner@acme.test', password: 'owner-pass-2026' }),
      },
    );
    const { token } = (await r.json()) as { token: string };
    await context.addCookies([{ name: 'token', value: token, url: shellUrl }]);
    recording = true;
    await page.goto('/');
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
  } else {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
  }
  await page.waitForLoadState('networkidle');
  await context.close();
  return fetched;
}

function sizes(files: Fetched[], type: 'js' | 'css') {
  const sel = files.filter((f) => f.type === type);
  const raw = sel.reduce((n, f) => n + f.body.length, 0);
  const gz = sel.reduce((n, f) => n + zlib.gzipSync(f.body, { level: 9 }).length, 0);
  const br = sel.reduce((n, f) => n + zlib.brotliCompressSync(f.body).length, 0);
  const wire = sel.reduce((n, f) => n + f.wire, 0);
  return { raw, gz, br, wire };
}

/** Builds the plain shell when it is missing or older than the shell's own build (same sources). */
function ensurePlainBuild(): void {
  const mtime = (f: string) => (fs.existsSync(f) ? fs.statSync(f).mtimeMs : 0);
  if (mtime(path.join(PLAIN_DIST, 'index.html')) >= mtime(path.join(root, 'shell', 'dist', 'index.html'))) return;
  const webpack = path.join(root, 'shell', 'node_modules', '.bin', 'webpack');
  const config = path.join(root, 'bench', 'plain-shell', 'webpack.config.cjs');
  const r = spawnSync(webpack, ['--mode', 'production', '--config', config], {
    cwd: path.join(root, 'shell'),
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`plain shell build failed:\n${r.stdout}\n${r.stderr}`);
}

/**
 * The login page of the plain shell: served by scripts/serve.mjs (same precompression, headers and
 * CSP) from bench/dist/plain-shell on the first port after the apps', measured like the federated one.
 */
async function plainLogin(browser: Browser): Promise<Fetched[]> {
  ensurePlainBuild();
  const system = benchSystemEnv('');
  // The first port after every app's (scripts/topology.mjs: the shell's port and the next ones).
  const port = Number(system.SHELL_PORT) + APPS.length;
  const env = { ...process.env, ...system, QUIET: '1', SHELL_PORT: String(port), SHELL_DIST: PLAIN_DIST };
  const server = createAppServer('shell', env);
  await new Promise<void>((resolve) => (server.listening ? resolve() : server.once('listening', () => resolve())));
  try {
    return await collect(browser, `http://localhost:${port}`, false);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}x` : 'n/a');

export async function shellCost(browser: Browser, shellUrl: string): Promise<string> {
  const rows: (string | number)[][] = [
    ['page', 'requests', 'JS wire', 'JS raw', 'JS gzip', 'JS brotli', 'CSS wire', 'CSS raw', 'CSS brotli'],
  ];
  const verdicts: string[] = [];
  let federatedLogin: { requests: number; js: number; css: number } | null = null;
  for (const [label, signIn] of [
    ['login', false],
    ['overview (signed in)', true],
  ] as const) {
    const files = await collect(browser, shellUrl, signIn);
    const js = sizes(files, 'js');
    const css = sizes(files, 'css');
    rows.push([
      label,
      files.length,
      kib(js.wire),
      kib(js.raw),
      kib(js.gz),
      kib(js.br),
      kib(css.wire),
      kib(css.raw),
      kib(css.br),
    ]);
    if (!signIn) {
      federatedLogin = { requests: files.length, js: js.wire, css: css.wire };
      verdicts.push(
        `login JS on the wire ${kib(js.wire)} (goal <= 150 KiB): ${js.wire <= 150 * 1024 ? 'met' : 'NOT met'}`,
      );
      verdicts.push(
        `login CSS on the wire ${kib(css.wire)} (goal <= 25 KiB): ${css.wire <= 25 * 1024 ? 'met' : 'NOT met'}`,
      );
    }
  }
  const plain = await plainLogin(browser);
  const pjs = sizes(plain, 'js');
  const pcss = sizes(plain, 'css');
  rows.push([
    'login, plain build (no MF)',
    plain.length,
    kib(pjs.wire),
    kib(pjs.raw),
    kib(pjs.gz),
    kib(pjs.br),
    kib(pcss.wire),
    kib(pcss.raw),
    kib(pcss.br),
  ]);
  if (federatedLogin) {
    const fed = federatedLogin.js + federatedLogin.css;
    const pl = pjs.wire + pcss.wire;
    const extra = federatedLogin.requests - plain.length;
    verdicts.push(
      `login, federated / plain: JS+CSS on the wire ${kib(fed)} / ${kib(pl)} = ${ratio(fed, pl)} ` +
        `(JS ${ratio(federatedLogin.js, pjs.wire)}; goal <= 1.10x): ${fed <= 1.1 * pl ? 'met' : 'NOT met'}`,
    );
    verdicts.push(
      `login, federated / plain: requests ${federatedLogin.requests} / ${plain.length} = ` +
        `${ratio(federatedLogin.requests, plain.length)}, ${extra} extra (goal <= 2 extra): ${extra <= 2 ? 'met' : 'NOT met'}`,
    );
  }
  return `${table(rows)}\n${verdicts.join('\n')}`;
}
