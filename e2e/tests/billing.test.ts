// Billing in Chromium against the started system (local billing provider): the Acme owner upgrades
// START UP -> GROW UP from a locked menu item and sees Custom Domains unlock without a reload, then
// schedules a downgrade; the Basic Guild owner (no automated billing) gets 'Contact your account
// manager'; a failing payment shows the spec's error, whose 'payment method' link opens a working
// billing portal, after which the retry succeeds.
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

const PAYMENT_FAILED = 'Error processing payment, please check your payment method and try again.';

async function openProfileMenu(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: `${name} profile menu` }).click();
}

/** The header menu's Custom Domains entry: a locked button before the upgrade, a link after. */
function customDomains(page: Page) {
  return page.getByRole('menuitem', { name: 'Custom Domains' });
}

/** Waits until the open header menu offers Custom Domains as a link to its page (unlocked). */
async function customDomainsUnlocked(page: Page): Promise<void> {
  await page.locator('a[role="menuitem"][href="/account/custom-domains"]').waitFor();
  assert.equal(await customDomains(page).getAttribute('data-locked'), null);
}

/** From a locked menu item: the upgrade dialog, then the plan picker. */
async function openPlansFromLockedItem(page: Page, name: string): Promise<void> {
  await openProfileMenu(page, name);
  assert.equal(await customDomains(page).getAttribute('data-locked'), 'true');
  await customDomains(page).click();
  await page.getByRole('dialog').getByText('Unlock more features!').waitFor();
  await page.getByRole('button', { name: 'Upgrade Your Plan', exact: true }).click();
  await page.getByRole('dialog', { name: 'Change your plan' }).waitFor();
}

describe('billing', () => {
  test('without automated billing: every entry to the upgrade flow ends in Contact your account manager', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    await signIn(page, 'owner@basic.test', 'basic-pass-2026');
    const info = page.getByRole('dialog', { name: 'Contact your account manager' });
    const seeInfoThenClose = async (entry: string) => {
      await info
        .getByText("We aren't able to change your plan because you aren't set up for automated billing.")
        .waitFor();
      // The upgrade dialog leaves (200 ms transition) as the info dialog opens.
      await page.getByRole('dialog', { name: 'Unlock more features!' }).waitFor({ state: 'detached' });
      assert.equal(await page.getByRole('dialog', { name: 'Change your plan' }).count(), 0, entry);
      await info.getByRole('button', { name: 'Close Window' }).click();
      await info.waitFor({ state: 'detached' });
    };
    // A locked sidebar item: the upgrade dialog, then its button.
    await page.getByRole('button', { name: /Automations \(locked/ }).click();
    await page.getByRole('button', { name: 'Upgrade Your Plan', exact: true }).click();
    await seeInfoThenClose('locked sidebar item');
    // A locked header menu item.
    await openProfileMenu(page, 'Bob Basic');
    await customDomains(page).click();
    await page.getByRole('button', { name: 'Upgrade Your Plan', exact: true }).click();
    await seeInfoThenClose('locked header item');
    // A direct navigation to a route the plan lacks: the guard opens the upgrade dialog.
    await page.goto('/engagement/automations');
    await page.getByRole('button', { name: 'Upgrade Your Plan', exact: true }).click();
    await seeInfoThenClose('direct navigation');
    // The billing page's Change plan: straight to the dialog, no upgrade dialog first.
    await page.goto('/account/billing');
    await page.getByRole('button', { name: 'Change plan' }).click();
    await seeInfoThenClose('billing page');
    await context.close();
  });

  test('a member without company_settings: no Billing entry, and opening /account/billing goes back to / without calling GET /v1/billing', async () => {
    const { page, context, requests } = await newSession(browser, shellUrl);
    await signIn(page, 'staff@acme.test', 'staff-pass-2026');
    await openProfileMenu(page, 'Sam Staff');
    await page.getByRole('menuitem', { name: 'Your Profile' }).waitFor();
    assert.equal(await page.getByRole('menuitem', { name: 'Billing' }).count(), 0);
    await page.keyboard.press('Escape');
    await page.goto('/account/billing');
    await page.waitForURL(`${shellUrl}/`);
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    // company_settings is not a plan feature: the spec's plain denial, no upgrade dialog, no 403 toast.
    assert.equal(await page.getByText('Unlock more features!').count(), 0);
    assert.equal(
      await page
        .getByRole('status')
        .filter({ hasText: /forbidden|permission/i })
        .count(),
      0,
    );
    assert.deepEqual(
      requests.filter((url) => new URL(url).pathname === '/v1/billing'),
      [],
    );
    assert.equal(await page.getByRole('heading', { name: 'Billing' }).count(), 0);
    await context.close();
  });

  test('a failing payment shows the error; the payment method link opens the portal; the retry upgrades', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    await signIn(page, 'owner@acme.test', 'owner-pass-2026');
    // Make the card decline through the portal first.
    await page.goto('/account/billing');
    await page.getByRole('button', { name: 'Manage payment method' }).click();
    await page.waitForURL(/\/billing\/portal\//);
    await page.getByRole('button', { name: 'Make payments fail' }).click();
    await page
      .getByText(/declines/)
      .first()
      .waitFor();
    await page.getByRole('link', { name: 'Return to the console' }).click();
    await page.waitForURL(`${shellUrl}/account/billing`);
    await page.getByText('Payments with this card fail.').waitFor();

    // A marker that a full reload would lose.
    await page.evaluate(() => Object.assign(window, { __noReload: true }));
    await openPlansFromLockedItem(page, 'Alice Acme');
    const growUp = page.getByTestId('plan-card-growup');
    await growUp.getByRole('button', { name: 'Sign-up' }).click();
    const confirm = page.getByRole('dialog', { name: 'Upgrade to GROW UP Plan' });
    await confirm.getByText('Amount due now').waitFor();
    await confirm.getByRole('button', { name: 'Pay & Upgrade' }).click();
    const failure = confirm.getByRole('alert').filter({ hasText: /Error processing payment/ });
    await failure.waitFor();
    assert.equal((await failure.textContent())?.trim(), PAYMENT_FAILED);

    // The 'payment method' link opens the portal; fix the card and come back.
    await confirm.getByRole('button', { name: 'payment method' }).click();
    await page.waitForURL(/\/billing\/portal\//);
    await page.getByRole('button', { name: 'Use a working card' }).click();
    await page.getByText('Visa •••• 4242').first().waitFor();
    await page.getByRole('link', { name: 'Return to the console' }).click();
    await page.waitForURL((url) => url.origin === shellUrl);

    // Retry: the upgrade goes through, and Custom Domains unlocks without a reload.
    await page.evaluate(() => Object.assign(window, { __noReload: true }));
    await openPlansFromLockedItem(page, 'Alice Acme');
    await page.getByTestId('plan-card-growup').getByRole('button', { name: 'Sign-up' }).click();
    await page
      .getByRole('dialog', { name: 'Upgrade to GROW UP Plan' })
      .getByRole('button', { name: 'Pay & Upgrade' })
      .click();
    await page.getByText('Plan updated!').waitFor();
    await openProfileMenu(page, 'Alice Acme');
    await customDomainsUnlocked(page);
    assert.equal(await page.evaluate(() => (window as { __noReload?: boolean }).__noReload), true, 'no reload');
    await page.keyboard.press('Escape');

    // The billing page shows the new plan and the paid invoice.
    await page.goto('/account/billing');
    await page.getByText('GROW UP').first().waitFor();
    await page.getByRole('cell', { name: 'Paid' }).first().waitFor();
    await context.close();
  });

  test('a downgrade is scheduled for the period end and can be cancelled', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    await signIn(page, 'owner@acme.test', 'owner-pass-2026');
    await page.goto('/account/billing');
    await page.getByRole('button', { name: 'Change plan' }).click();
    await page.getByRole('dialog', { name: 'Change your plan' }).waitFor();
    await page.getByTestId('plan-card-basic').getByRole('button', { name: 'Sign-up' }).click();
    const confirm = page.getByRole('dialog', { name: 'Downgrade to BASIC Plan' });
    await confirm.getByText("What you'll pay starting:").waitFor();
    await confirm.getByRole('button', { name: 'Schedule Downgrade' }).click();
    await page.getByText('Plan updated!').waitFor();
    await page.getByText(/Your plan changes to BASIC/).waitFor();
    // Until then the plan and its features stay.
    await openProfileMenu(page, 'Alice Acme');
    await customDomainsUnlocked(page);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Keep my current plan' }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /Confirm|Keep/ })
      .last()
      .click();
    await page.getByText(/Your plan changes to BASIC/).waitFor({ state: 'detached' });
    await context.close();
  });
});
