import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { launch } from '../lib/browser.ts';
import { E2E_ENV } from '../lib/system.ts';
import { tryArea } from '../../scripts/try-remote.mjs';

// `pnpm try account`: one area on its own, for the team that owns it. The shell hosts only that
// remote, a demo session is signed in by one address, and no other remote is ever requested.
let run: Awaited<ReturnType<typeof tryArea>>;
let browser: Browser;

before(async () => {
  run = await tryArea('account', { built: true, env: E2E_ENV });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await run?.stop();
});

test('the sign-in address opens the area signed in, and the host knows only that remote', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const origins = new Set<string>();
  page.on('request', (r) => origins.add(new URL(r.url()).origin));
  await page.goto(run.signInUrl);
  await page.waitForURL('**/account/profile');
  await page.getByRole('heading', { name: 'Your Profile', level: 1 }).waitFor();
  const config = (await (await fetch(`${run.shellUrl}/config/remotes.json`)).json()) as { remotes: object };
  assert.deepEqual(Object.keys(config.remotes), ['mfe_account']);
  const otherRemotes = ['MFE_ENGAGEMENT_PORT', 'MFE_ONBOARDING_PORT', 'MFE_ADVERTISING_PORT', 'MFE_ADMIN_PORT'].map(
    (key) => `http://localhost:${E2E_ENV[key as keyof typeof E2E_ENV]}`,
  );
  assert.deepEqual(
    [...origins].filter((o) => otherRemotes.includes(o)),
    [],
  );
  assert.ok(origins.has(run.remoteUrl), 'the area itself was loaded from its own server');
  await context.close();
});

test('an address of another area says that area is not part of this run', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(run.signInUrl);
  await page.waitForURL('**/account/profile');
  await page.goto(`${run.shellUrl}/engagement/contacts`);
  await page.getByRole('heading', { name: 'This area is unavailable right now' }).waitFor();
  await context.close();
});
