// The template designer's weight: the JS (and CSS) a browser fetches to open the designer, measured
// from what Chromium fetched (bytes on the wire as the servers sent them, precompressed brotli by
// Accept-Encoding, and the bodies' raw and brotli sizes). Two rows: the templates grid reached from the
// overview (what the grid adds: no editor code), and the designer reached from the grid (what the
// designer route adds: the editor's own chunk, GrapesJS + the MJML preset). The shell's start-up is
// shell-cost.ts's figure, which this route does not change.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { startSystem } from '../scripts/system.mjs';
import { launch, newSession } from '../e2e/lib/browser.ts';
import { benchSystemEnv, kib, table } from './lib.ts';

interface Fetched {
  url: string;
  type: 'js' | 'css' | 'other';
  body: Buffer;
  wire: number;
}

function record(page: Page): { files: Fetched[]; on: boolean } {
  const state = { files: [] as Fetched[], on: false };
  page.on('response', async (res) => {
    if (!state.on) return;
    const url = res.url();
    const type = /\.m?js(\?|$)/.test(url) ? 'js' : /\.css(\?|$)/.test(url) ? 'css' : 'other';
    if (type === 'other') return;
    const body = await res.body().catch(() => Buffer.alloc(0));
    const wire = await res
      .request()
      .sizes()
      .then((s) => s.responseBodySize)
      .catch(() => body.length);
    state.files.push({ url, type, body, wire });
  });
  return state;
}

const sum = (files: Fetched[], type: 'js' | 'css') => {
  const sel = files.filter((f) => f.type === type);
  return {
    count: sel.length,
    wire: sel.reduce((n, f) => n + f.wire, 0),
    raw: sel.reduce((n, f) => n + f.body.length, 0),
    br: sel.reduce((n, f) => n + zlib.brotliCompressSync(f.body).length, 0),
  };
};

export async function designerCost(browser: Browser, shellUrl: string, gatewayUrl: string): Promise<string> {
  const login = await fetch(`${gatewayUrl}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@acme.test', password: 'owner-pass-2026' }),
  });
  const { token } = (await login.json()) as { token: string };
  const created = await fetch(`${gatewayUrl}/v1/templates`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: 'Bench newsletter', kind: 'marketing', starter: 'newsletter' }),
  });
  if (!created.ok) throw new Error(`template not created: ${created.status} ${await created.text()}`);
  const { _id: id } = (await created.json()) as { _id: string };

  const { page, context } = await newSession(browser, shellUrl);
  await context.addCookies([{ name: 'token', value: token, url: shellUrl }]);
  const state = record(page);
  await page.goto('/');
  await page.getByRole('heading', { name: /Welcome/ }).waitFor();
  await page.waitForLoadState('networkidle');

  state.on = true;
  await page.getByRole('link', { name: 'Templates' }).first().click();
  await page.getByRole('link', { name: 'Bench newsletter' }).waitFor();
  await page.waitForLoadState('networkidle');
  const grid = state.files.splice(0);

  await page.getByRole('link', { name: 'Bench newsletter' }).click();
  await page.waitForURL(`**/engagement/templates/${id}`);
  await page.frameLocator('iframe[title="E-mail design canvas"]').locator('body').waitFor();
  await page.waitForLoadState('networkidle');
  const designer = state.files.splice(0);
  await context.close();

  const rows: (string | number)[][] = [
    ['route, reached from the one before', 'JS files', 'JS wire', 'JS raw', 'JS brotli', 'CSS wire'],
  ];
  for (const [label, files] of [
    ['templates grid (from the overview)', grid],
    ['designer (from the grid)', designer],
  ] as const) {
    const js = sum(files, 'js');
    const css = sum(files, 'css');
    rows.push([label, js.count, kib(js.wire), kib(js.raw), kib(js.br), kib(css.wire)]);
  }
  const biggest = [...designer].filter((f) => f.type === 'js').sort((a, b) => b.wire - a.wire)[0];
  const gridHasEditor = grid.some((f) => f.body.includes('grapesjs'));
  return [
    table(rows),
    `largest designer file: ${biggest ? `${new URL(biggest.url).pathname} ${kib(biggest.wire)} on the wire, ${kib(biggest.body.length)} raw` : 'none'}`,
    `editor code fetched by the templates grid: ${gridHasEditor ? 'YES (goal: none)' : 'none (goal met)'}`,
  ].join('\n');
}

// `pnpm --filter ./bench bench:designer`: this figure alone, on a system of its own.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const env = benchSystemEnv(fs.mkdtempSync(path.join(os.tmpdir(), 'console-bench-')));
  const system = await startSystem(env);
  const browser = await launch();
  try {
    console.log(
      `## Template designer route (JS on the wire)\n${await designerCost(browser, system.urls.shell, system.urls.gateway)}`,
    );
  } finally {
    await browser.close();
    await system.stop();
  }
}
