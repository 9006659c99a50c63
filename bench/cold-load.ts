// Cold load in headless Chromium: time to the login form being interactive, and the first
// navigation to a remote page not loaded yet (medians of several runs, fresh context each), and in that
// navigation the time from the guard's /v1/auth/verify request to the page's first data request: the
// part the shell controls (verify, the remote's manifest, remoteEntry and exposed chunk, rendering),
// free of the browser driver's own click and polling time.
import type { Browser, Request } from 'playwright-core';
import { newSession } from '../e2e/lib/browser.ts';
import { median, table } from './lib.ts';

export async function coldLoad(browser: Browser, shellUrl: string, gatewayUrl: string, runs = 7): Promise<string> {
  const login: number[] = [];
  const remote: number[] = [];
  const chain: number[] = [];
  const r = await fetch(`${gatewayUrl}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@acme.test', password: 'owner-pass-2026' }),
  });
  const { token } = (await r.json()) as { token: string };
  for (let i = 0; i < runs; i += 1) {
    {
      const { page, context } = await newSession(browser, shellUrl);
      const t0 = Date.now();
      await page.goto('/login');
      await page.getByRole('button', { name: 'Sign in' }).and(page.locator(':enabled')).waitFor();
      await page.getByLabel('Email').fill('x'); // interactive: accepts input
      login.push(Date.now() - t0);
      await context.close();
    }
    {
      const { page, context } = await newSession(browser, shellUrl);
      await context.addCookies([{ name: 'token', value: token, url: shellUrl }]);
      await page.goto('/');
      await page.getByRole('heading', { name: /Welcome/ }).waitFor();
      let verify: Request | null = null;
      let data: Request | null = null;
      page.on('request', (q) => {
        if (!verify && q.url().includes('/v1/auth/verify')) verify = q;
        if (!data && q.url().includes('/v1/contacts?')) data = q;
      });
      const t0 = Date.now();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' }).click();
      await page.getByRole('heading', { name: 'Contacts', level: 1 }).waitFor();
      remote.push(Date.now() - t0);
      // The browser's own start times (the driver's events can arrive late on a busy machine).
      const [v, d] = [verify as Request | null, data as Request | null];
      if (v && d) {
        await Promise.all([v.response(), d.response()]);
        chain.push(Math.round(d.timing().startTime - v.timing().startTime));
      }
      await context.close();
    }
  }
  const m = median(remote);
  return [
    table([
      ['measure', 'median ms', 'min', 'max', 'runs'],
      ['login form interactive (cold)', median(login), Math.min(...login), Math.max(...login), runs],
      ['route change to a cold remote page', m, Math.min(...remote), Math.max(...remote), runs],
      [
        '  of which: verify request -> first data request',
        median(chain),
        Math.min(...chain),
        Math.max(...chain),
        chain.length,
      ],
    ]),
    `route change to a cold remote page ${m} ms (goal < 400 ms): ${m < 400 ? 'met' : 'NOT met'}`,
  ].join('\n');
}
