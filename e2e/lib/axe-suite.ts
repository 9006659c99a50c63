// The axe suites' shared set-up (e2e/tests/accessibility*.test.ts): one system and one Chromium per
// file, a scan that records every violation under a name, and the report that fails on any.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { axeViolations } from './axe.ts';
import { launch, newSession, signIn } from './browser.ts';
import { startTestSystem } from './system.ts';

export let system: Awaited<ReturnType<typeof startTestSystem>>;
export let browser: Browser;
const found: string[] = [];

/** Starts the file's system and Chromium before its tests, and stops them after. */
export function setUpAxeSuite(): void {
  before(async () => {
    system = await startTestSystem();
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await system?.stop();
  });
}

/** Fails with every violation the file's scans recorded: rule, element, what is wrong. */
export function assertNoViolations(): void {
  assert.deepEqual(found, [], `axe found ${found.length} problems:\n${found.join('\n')}`);
}

/** Runs axe on the page as it is now; records every violation under `where`. */
export async function check(
  page: Page,
  where: string,
  exclude: readonly string[] = [],
  options: { idle?: boolean } = {},
): Promise<void> {
  found.push(...(await axeViolations(page, where, exclude, options)));
}

/**
 * E-mail previews and thumbnails are the user's own e-mail design shown in sandboxed frames
 * (`sandbox=""`: no scripts), which axe cannot run inside (its scan waits on them for ever): they are
 * left out. Everything else is scanned, GrapesJS's panels and the design canvas included.
 */
export const EMAIL_FRAMES = ['iframe[sandbox=""]'];

export async function visit(page: Page, path: string, ready?: () => Promise<unknown>): Promise<void> {
  await page.goto(path);
  await page.locator('main, [role="main"], form').first().waitFor();
  if (ready) await ready();
  await check(page, path);
}

export async function session(email: string, password: string): Promise<{ page: Page; context: BrowserContext }> {
  const { page, context } = await newSession(browser, system.urls.shell);
  await signIn(page, email, password);
  return { page, context };
}
