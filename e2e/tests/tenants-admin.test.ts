// Admin /tenants and the super admin's Dashboard in Chromium against the started system: the super admin
// sees the platform dashboard on '/', filters the tenants grid by plan (kept in the URL) and sorts it by
// name, opens a tenant's slide-over, creates a tenant; its owner follows the welcome e-mail's link in a
// second browser, sets a password and signs in to the new community; the admin then deletes the tenant
// after typing its name, and it leaves the grid at once. axe reports nothing on the dashboard, the tenants
// page, the slide-over and the create and delete dialogs.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { axeViolations } from '../lib/axe.ts';
import { launch, newSession, signIn } from '../lib/browser.ts';
import { mailTo } from '../lib/outbox.ts';
import { startTestSystem } from '../lib/system.ts';

let system: Awaited<ReturnType<typeof startTestSystem>>;
let browser: Browser;
const found: string[] = [];

before(async () => {
  system = await startTestSystem();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await system?.stop();
});

async function check(page: Page, where: string): Promise<void> {
  found.push(...(await axeViolations(page, where)));
}

/** The tenant names of the grid's rows, in order (each name is the button that opens its detail). */
async function tenantNames(page: Page): Promise<string[]> {
  const grid = page.getByRole('table', { name: 'Tenants', exact: true });
  return (await grid.locator('tbody tr td:first-child button').allTextContents()).map((t) => t.trim());
}

describe('tenants administration', () => {
  test('dashboard; filter, sort, create; the owner signs in from the welcome e-mail; delete', async () => {
    const admin = await newSession(browser, system.urls.shell);
    await signIn(admin.page, 'admin@console.test', 'admin-pass-2026');
    // The super admin's Dashboard: the platform's figures and the senders.
    const board = admin.page.getByTestId('platform-dashboard');
    await board.waitFor();
    await board.getByRole('table', { name: 'Tenants by plan' }).waitFor();
    await board.getByRole('region', { name: 'Senders', exact: true }).waitFor();
    await check(admin.page, 'dashboard');

    await admin.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tenants' }).click();
    await admin.page.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor();
    await admin.page.getByRole('button', { name: 'Acme DAO', exact: true }).waitFor();
    await admin.page.getByRole('region', { name: 'Tenant figures' }).waitFor();
    await check(admin.page, 'tenants page');

    // Filter by plan: only BASIC tenants, and the URL says so.
    await admin.page.getByRole('combobox', { name: 'Plan' }).selectOption('basic');
    await admin.page.waitForURL((url) => url.searchParams.get('plan') === 'basic');
    await admin.page.getByRole('button', { name: 'Acme DAO', exact: true }).waitFor({ state: 'detached' });
    await admin.page.getByRole('button', { name: 'Basic Guild', exact: true }).waitFor();
    assert.deepEqual(await tenantNames(admin.page), ['Basic Guild']);
    // A reload shows the same filtered grid.
    await admin.page.reload();
    await admin.page.getByRole('button', { name: 'Basic Guild', exact: true }).waitFor();
    // The Plan filter shows it once the options have loaded.
    await admin.page.waitForFunction(() =>
      Array.from(document.querySelectorAll('select')).some(
        (select) => select.labels?.[0]?.textContent === 'Plan' && select.value === 'basic',
      ),
    );
    await admin.page.getByRole('button', { name: 'Clear filters' }).click();
    await admin.page.getByRole('button', { name: 'Acme DAO', exact: true }).waitFor();

    // Sort by name: a new field keeps the current order (descending, spec section 4), the same field
    // again flips it.
    await admin.page.getByRole('button', { name: /^Name/ }).click();
    await admin.page.waitForFunction(() => {
      const cells = Array.from(
        document.querySelectorAll('table[aria-label="Tenants"] tbody tr td:first-child button'),
      ).map((b) => b.textContent ?? '');
      const sorted = [...cells].sort((a, b) => b.localeCompare(a));
      return cells.length > 1 && cells.join() === sorted.join();
    });
    const descending = await tenantNames(admin.page);
    await admin.page.getByRole('button', { name: /^Name/ }).click();
    await admin.page.waitForFunction(
      (first) =>
        document.querySelector('table[aria-label="Tenants"] tbody tr td:first-child button')?.textContent !== first,
      descending[0],
    );
    assert.deepEqual(await tenantNames(admin.page), [...descending].reverse());

    // A tenant's detail in the slide-over.
    await admin.page.getByRole('button', { name: 'Acme DAO', exact: true }).click();
    const panel = admin.page.getByTestId('tenant-slide-over');
    await panel.getByRole('button', { name: 'Impersonate owner@acme.test' }).waitFor();
    await panel.getByRole('form', { name: 'Settings' }).waitFor();
    await check(admin.page, 'tenant slide-over');
    await admin.page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });

    // Create a tenant.
    await admin.page.getByRole('button', { name: 'Create tenant' }).click();
    const create = admin.page.getByRole('dialog', { name: 'Create tenant' });
    await create.waitFor();
    await check(admin.page, 'create tenant dialog');
    await create.getByLabel('Name', { exact: true }).fill('Moon DAO');
    await create.getByLabel('Plan', { exact: true }).selectOption({ label: 'START UP' });
    await create.getByLabel('Owner’s first name').fill('Luna');
    await create.getByLabel('Owner’s last name').fill('Moon');
    await create.getByLabel('Owner’s e-mail').fill('luna@moon.test');
    await create.getByRole('button', { name: 'Create tenant' }).click();
    await create.waitFor({ state: 'detached' });
    await admin.page.getByRole('button', { name: 'Moon DAO', exact: true }).waitFor();

    // The owner follows the welcome e-mail in a second browser and chooses a password.
    const mail = await mailTo(system.dataDir, 'luna@moon.test', /Welcome/);
    const link = /http:\/\/\S+\/reset\/\S+/.exec(mail)?.[0];
    assert.ok(link, 'the welcome e-mail carries a link to set a password');
    const owner = await newSession(browser, system.urls.shell);
    await owner.page.goto(new URL(link).pathname);
    await owner.page.getByLabel('New password', { exact: true }).fill('moon-pass-2026!');
    await owner.page.getByLabel('Repeat the new password').fill('moon-pass-2026!');
    await owner.page.getByRole('button', { name: 'Change password' }).click();
    await owner.page.getByRole('heading', { name: 'Password changed' }).waitFor();
    await signIn(owner.page, 'luna@moon.test', 'moon-pass-2026!');
    await owner.page.getByTestId('overview-tenant').filter({ hasText: 'Moon DAO' }).waitFor();

    // Delete: Delete enables only with the name typed; the tenant leaves the grid at once.
    await admin.page.getByRole('button', { name: 'Moon DAO', exact: true }).click();
    await panel.getByRole('button', { name: 'Delete tenant' }).click();
    const remove = admin.page.getByRole('dialog', { name: 'Delete Moon DAO?' });
    await remove.waitFor();
    const confirm = remove.getByRole('button', { name: 'Delete', exact: true });
    assert.equal(await confirm.isDisabled(), true);
    await remove.getByLabel('Type Moon DAO to confirm').fill('Moon DAO');
    await check(admin.page, 'delete tenant dialog');
    assert.equal(await confirm.isEnabled(), true);
    await confirm.click();
    await remove.waitFor({ state: 'detached' });
    await admin.page.getByRole('button', { name: 'Moon DAO', exact: true }).waitFor({ state: 'detached' });

    await admin.context.close();
    await owner.context.close();
    assert.deepEqual(found, [], `axe found ${found.length} problems:\n${found.join('\n')}`);
  });
});
