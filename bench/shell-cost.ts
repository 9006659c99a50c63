// Shell cost: JS and CSS bytes and requests needed to show the login page, and the same for the
// overview after sign-in, measured from what Chromium actually fetched: the bytes on the wire as the
// servers sent them (precompressed, by Accept-Encoding), and the bodies' raw, gzip and brotli sizes.
import zlib from 'node:zlib';
import type { Browser } from 'playwright-core';
import { newSession } from '../e2e/lib/browser.ts';
import { kib, table } from './lib.ts';

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

export async function shellCost(browser: Browser, shellUrl: string): Promise<string> {
  const rows: (string | number)[][] = [
    ['page', 'requests', 'JS wire', 'JS raw', 'JS gzip', 'JS brotli', 'CSS wire', 'CSS raw', 'CSS brotli'],
  ];
  const verdicts: string[] = [];
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
      verdicts.push(
        `login JS on the wire ${kib(js.wire)} (goal <= 150 KiB): ${js.wire <= 150 * 1024 ? 'met' : 'NOT met'}`,
      );
      verdicts.push(
        `login CSS on the wire ${kib(css.wire)} (goal <= 25 KiB): ${css.wire <= 25 * 1024 ? 'met' : 'NOT met'}`,
      );
    }
  }
  return `${table(rows)}\n${verdicts.join('\n')}`;
}
