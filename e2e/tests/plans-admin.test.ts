// Admin /plans in Chromium against the started system: the super admin edits START UP's
// label and its first monthly price (a taken price id is refused under its field first); the Acme
// owner, whose plan picker already showed the old catalogue, opens it again from /account/billing
// without a reload and sees the new label and $101.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { launch, newSession, signIn } from '../lib/browser.ts';
import { startTestSystem } from '../lib/system.ts';

let system: Awaited<ReturnType<typeof startTestSystem>>;
let browser: Browser;
let shellUrl: string;

before(async () => {
  system = await startTestSystem();
  shellUrl = system.urls.shell;
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await system?.stop();
});

/** From /account/billing: 'Change plan' opens the picker; answers START UP's card. */
async function openPicker(page: Page) {
  await page.getByRole('button', { name: 'Change plan' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change your plan' });
  await dialog.waitFor();
  return dialog.getByTestId('plan-card-startup');
}

describe('plans administration', () => {
  test('the super admin edits START UP; the Acme owner sees it in the plan picker', async () => {
    // The owner has seen the catalogue before the edit (the picker keeps its last answer).
    const owner = await newSession(browser, shellUrl);
    await signIn(owner.page, 'owner@acme.test', 'owner-pass-2026');
    await owner.page.goto('/account/billing');
    const before = await openPicker(owner.page);
    await before.getByText('For expanding projects').waitFor();
    assert.equal((await before.getByTestId('plan-price').textContent())?.trim(), '$100');
    await owner.page.keyboard.press('Escape');
    await owner.page.getByRole('dialog', { name: 'Change your plan' }).waitFor({ state: 'detached' });

    const admin = await newSession(browser, shellUrl);
    await signIn(admin.page, 'admin@console.test', 'admin-pass-2026');
    await admin.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Plans' }).click();
    await admin.page.getByRole('heading', { name: 'Plans', level: 1 }).waitFor();
    const row = admin.page.getByTestId('plan-row-startup');
    await row.getByText('For expanding projects').waitFor();
    await row.getByRole('button', { name: 'Edit START UP' }).click();
    const editor = admin.page.getByRole('dialog', { name: 'Edit START UP' });
    await editor.waitFor();

    // A price id of another plan: refused by the gateway, shown under the field.
    const yearlyId = editor.getByLabel('START UP option 1 yearly price id', { exact: true });
    assert.equal(await yearlyId.inputValue(), 'price_startup1_yearly');
    await yearlyId.fill('price_basic1_yearly');
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.getByText('This price id is used by another price.').waitFor();
    assert.equal(await yearlyId.getAttribute('aria-invalid'), 'true');
    await yearlyId.fill('price_startup1_yearly');

    await editor.getByLabel('Label', { exact: true }).fill('For expanding teams');
    const monthly = editor.getByLabel('START UP option 1 monthly price', { exact: true });
    assert.equal(await monthly.inputValue(), '100');
    await monthly.fill('101');
    await editor.getByRole('button', { name: 'Save' }).click();
    await admin.page.getByText('Plan saved.').waitFor();
    await editor.waitFor({ state: 'detached' });
    await row.getByText('For expanding teams').waitFor();
    await row.getByText('$101 – $150').waitFor();
    await admin.context.close();

    // Same page, no reload: the picker fetches the catalogue again when it opens.
    const after = await openPicker(owner.page);
    await after.getByText('For expanding teams').waitFor();
    await after.getByTestId('plan-price').filter({ hasText: '$101' }).waitFor();
    assert.equal((await after.getByTestId('plan-price').textContent())?.trim(), '$101');
    assert.equal(await after.getByText('For expanding projects').count(), 0);
    await owner.context.close();
  });
});
