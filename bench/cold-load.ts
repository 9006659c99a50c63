// Cold load in headless Chromium: time to the login form being interactive, and the first
// navigation to a remote page not loaded yet (medians of several runs, fresh context each).
import type { Browser } from 'playwright-core';
import { newSession } from '../e2e/lib/browser.ts';
import { median, table } from './lib.ts';

export async function coldLoad(browser: Browser, shellUrl: string, gatewayUrl: string, runs = 7): Promise<string> {
  const login: number[] = [];
  const remote: number[] = [];
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
      const t0 = Date.now();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' }).click();
      await page.getByRole('heading', { name: 'Contacts', level: 1 }).waitFor();
      remote.push(Date.now() - t0);
      await context.close();
    }
  }
  const m = median(remote);
  return [
    table([
      ['measure', 'median ms', 'min', 'max', 'runs'],
      ['login form interactive (cold)', median(login), Math.min(...login), Math.max(...login), runs],
      ['route change to a cold remote page', m, Math.min(...remote), Math.max(...remote), runs],
    ]),
    `route change to a cold remote page ${m} ms (goal < 400 ms): ${m < 400 ? 'met' : 'NOT met'}`,
  ].join('\n');
}
