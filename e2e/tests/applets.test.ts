// Applets in Chromium against the started system: the super admin removes the seeded sample applet (Token
// Gate, applets/token-gate) and registers it again from the Applets screen (the gateway reads its manifest,
// the module is chosen from what it exposes), in GROW UP; the Lab Rats owner then finds it under "Apps",
// opens it and sees the contact count through the console's own session and api client; the Acme owner
// (START UP) sees no Apps entry and never requests the applet's files, not even at its address.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { axeViolations } from '../lib/axe.ts';
import { launch, newSession, signIn } from '../lib/browser.ts';
import { startTestSystem } from '../lib/system.ts';

let system: Awaited<ReturnType<typeof startTestSystem>>;
let browser: Browser;
let shellUrl: string;
let appletOrigin: string;

before(async () => {
  system = await startTestSystem();
  shellUrl = system.urls.shell;
  appletOrigin = new URL(system.urls['applets/token-gate']).origin;
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await system?.stop();
});

describe('applets at run time', () => {
  test("the shell's CSP allows the sample applet's origin for scripts, styles and its manifest", async () => {
    const csp = (await fetch(`${shellUrl}/login`)).headers.get('content-security-policy') ?? '';
    for (const directive of ['script-src', 'style-src', 'connect-src']) {
      const sources = new RegExp(`${directive} ([^;]*)`).exec(csp)?.[1]?.split(' ') ?? [];
      assert.ok(sources.includes(appletOrigin), `${directive}: ${csp}`);
    }
  });

  test('a platform admin registers the sample applet from the Applets screen', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    const problems: string[] = [];
    await signIn(page, 'admin@console.test', 'admin-pass-2026');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Applets' }).click();
    await page.getByRole('heading', { name: 'Applets', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Delete Token Gate' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this applet?' });
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Applet deleted.').waitFor();
    await page.getByRole('button', { name: 'Delete Token Gate' }).waitFor({ state: 'detached' });
    problems.push(...(await axeViolations(page, '/applets')));

    await page.getByRole('button', { name: 'New applet' }).click();
    await page.getByRole('heading', { name: 'New applet', level: 1 }).waitFor();
    await page.getByRole('textbox', { name: 'Name' }).fill('Token Gate');
    await page.getByRole('textbox', { name: 'Slug' }).fill('token-gate');
    await page.getByRole('textbox', { name: 'Description' }).fill('Content for token holders.');
    await page.getByRole('textbox', { name: 'Manifest URL' }).fill(`${appletOrigin}/mf-manifest.json`);
    await page.getByRole('button', { name: 'Check' }).click();
    await page.getByRole('status').filter({ hasText: 'exposes ./Page' }).waitFor();
    await page.getByRole('combobox', { name: 'Module' }).selectOption('./Page');
    await page.getByRole('checkbox', { name: 'GROW UP' }).check();
    problems.push(...(await axeViolations(page, '/applets/new')));
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Applet saved.').waitFor();
    await page.goto('/applets');
    await page.getByRole('button', { name: 'Delete Token Gate' }).waitFor();
    await context.close();
    assert.deepEqual(problems, []);
  });

  test('a tenant whose plan includes the sample opens it from Apps and sees its contact count', async () => {
    const { page, context, requests } = await newSession(browser, shellUrl);
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    await signIn(page, 'owner@lab.test', 'lab-pass-2026');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('heading', { name: 'Apps' }).waitFor();
    // Signed in, the applet is listed but not downloaded until its page is opened.
    assert.deepEqual(
      requests.filter((u) => u.startsWith(appletOrigin)),
      [],
    );
    // Keyboard: the entry is a link reached and followed like the others.
    const link = nav.getByRole('link', { name: 'Token Gate' });
    await link.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${shellUrl}/apps/token-gate`);
    await page.getByRole('heading', { name: 'Token Gate', level: 1 }).waitFor();
    const count = page.getByTestId('token-gate-contacts');
    await count.waitFor();
    const overview = await fetchOverviewTotal(page);
    assert.equal((await count.textContent())?.trim(), `${overview.toLocaleString('en-US')} contacts`);
    await page.getByText('Unlocked for owner@lab.test.').waitFor();
    assert.ok(requests.some((u) => u === `${appletOrigin}/mf-manifest.json`));
    assert.deepEqual(await axeViolations(page, '/apps/token-gate'), []);
    // One @console/shared for the shell and the applet: the session store was evaluated once.
    assert.equal(
      await page.evaluate(() => (globalThis as { __consoleStoreEvaluations?: number }).__consoleStoreEvaluations),
      1,
    );
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('a tenant on another plan sees no Apps entry and never requests the applet', async () => {
    const { page, context, requests } = await newSession(browser, shellUrl);
    await signIn(page, 'owner@acme.test', 'owner-pass-2026');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Overview' }).waitFor();
    await page.waitForLoadState('networkidle');
    assert.equal(await nav.getByRole('heading', { name: 'Apps' }).count(), 0);
    assert.equal(await nav.getByRole('link', { name: 'Token Gate' }).count(), 0);
    // At the applet's address: not listed for this tenant, so never registered nor downloaded.
    await page.goto('/apps/token-gate');
    await page.getByRole('heading', { name: 'App not available' }).waitFor();
    await page.waitForLoadState('networkidle');
    assert.deepEqual(
      requests.filter((u) => u.startsWith(appletOrigin)),
      [],
    );
    await context.close();
  });
});

/** The tenant's contact count as the overview answers it, with the page's own session token. */
async function fetchOverviewTotal(page: import('playwright-core').Page): Promise<number> {
  const token = (await page.context().cookies()).find((c) => c.name === 'token')?.value ?? '';
  const reply = await fetch(`${system.urls.gateway}/v1/overview`, {
    headers: { authorization: `Bearer ${decodeURIComponent(token)}` },
  });
  assert.equal(reply.status, 200);
  const body = (await reply.json()) as { contacts: { total: number } };
  return body.contacts.total;
}
