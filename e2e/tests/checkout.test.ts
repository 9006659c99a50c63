// The checkout in Chromium against the started system (local provider): a new customer
// opens /checkout/price_growup1_monthly without a session, fills in the account, is told to check the
// e-mail, opens the payment link from it, is declined once on the hosted payment page, pays with 4242…,
// lands on /checkout/success signed in to a GROW UP console (Custom Domains unlocked), then signs out
// and in again with the new account. The same e-mail again gets the same answer, and a note by e-mail.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { cookieNames, launch, newSession, signIn } from '../lib/browser.ts';
import { mailTo } from '../lib/outbox.ts';
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

const OWNER = { email: 'rita@rocket.test', password: 'rocket-pass-2026', name: 'Rita Rocket' };

async function openProfileMenu(page: Page): Promise<void> {
  await page.getByRole('button', { name: `${OWNER.name} profile menu` }).click();
}

/** The open header menu offers Custom Domains as a link to its page (GROW UP has the feature). */
async function customDomainsUnlocked(page: Page): Promise<void> {
  await page.locator('a[role="menuitem"][href="/account/custom-domains"]').waitFor();
  assert.equal(await page.getByRole('menuitem', { name: 'Custom Domains' }).getAttribute('data-locked'), null);
}

const CHECK_MAIL = (email: string) =>
  `We have sent a message to ${email} with the next step. Open the link in it to continue. ` +
  'If it does not arrive within a few minutes, look in your spam folder.';
const PAYMENT_LINK = /https?:\/\/[^\s"<>]+\/billing\/checkout\/[^\s"<>]+/;

async function payWith(page: Page, cardNumber: string): Promise<void> {
  await page.getByLabel('Card number').fill(cardNumber);
  await page.getByLabel('Expiration date (MM / YY)').fill('12 / 34');
  await page.getByLabel('Security code (CVC)').fill('123');
  await page.getByRole('button', { name: 'Pay $242.50' }).click();
}

describe('checkout', () => {
  test('an unknown price says so and offers the plans', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    await page.goto('/checkout/price_nope_monthly');
    await page.getByRole('alert').filter({ hasText: 'This price does not exist.' }).waitFor();
    await page
      .getByRole('navigation', { name: 'Plans' })
      .getByRole('link', { name: /GROW UP/ })
      .click();
    await page.waitForURL(`${shellUrl}/checkout/price_growup1_monthly`);
    await page.getByRole('heading', { name: 'Subscribe to GROW UP' }).waitFor();
    await context.close();
  });

  test('a new customer subscribes to GROW UP and lands signed in; the account signs in again', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    // Failed responses, apart from the declined payment itself (402) and the browser's favicon guess.
    const failures: string[] = [];
    page.on('response', (r) => {
      const path = new URL(r.url()).pathname;
      if (r.status() >= 400 && r.status() !== 402 && path !== '/favicon.ico') failures.push(`${r.status()} ${r.url()}`);
    });
    await page.goto('/checkout/price_growup1_monthly');
    await page.getByRole('heading', { name: 'Subscribe to GROW UP' }).waitFor();
    const summary = page.getByLabel('Order summary');
    await summary.getByText('125.000 e-mails').waitFor();
    await summary.getByText('$242.50 / month').waitFor();
    assert.deepEqual(await cookieNames(context), [], 'no session');

    await page.getByLabel('Community name').fill('Rocket Club');
    await page.getByLabel('First name').fill('Rita');
    await page.getByLabel('Last name').fill('Rocket');
    await page.getByLabel('Work e-mail').fill(OWNER.email);
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel(/I accept the terms/).check();
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    // The gateway's password rule, before anything is sent.
    await page.getByText('Use at least 10 characters.').waitFor();
    await page.getByLabel('Password', { exact: true }).fill(OWNER.password);
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: CHECK_MAIL(OWNER.email) })
      .waitFor();

    // The payment link from the e-mail, opened in this browser (it kept the checkout's secret).
    const mail = await mailTo(system.dataDir, OWNER.email, /Continue your Community Console subscription/);
    const link = PAYMENT_LINK.exec(mail)?.[0];
    assert.ok(link, 'a payment link in the e-mail');
    await page.goto(link);

    // The local provider's hosted page: order summary, a declined card, then the good one.
    await page.waitForURL(/\/billing\/checkout\//);
    await page.getByRole('heading', { name: 'Pay for your subscription' }).waitFor();
    await page
      .getByRole('row', { name: /Total due today/ })
      .getByText('$242.50')
      .waitFor();
    assert.equal(
      await page.getByRole('link', { name: 'Cancel' }).getAttribute('href'),
      `${shellUrl}/checkout/price_growup1_monthly`,
    );
    await payWith(page, '4000 0000 0000 0002');
    await page.getByRole('alert').filter({ hasText: 'Your card was declined.' }).waitFor();
    assert.match(page.url(), /\/billing\/checkout\//, 'stays on the payment page');
    await payWith(page, '4242 4242 4242 4242');

    // Back in the console, signed in, in the main layout of a GROW UP tenant.
    await page.waitForURL((url) => url.origin === shellUrl && url.pathname === '/checkout/success');
    await page.getByRole('heading', { name: 'Welcome to GROW UP!' }).waitFor();
    await page.getByLabel('Your subscription').getByText('$242.50').waitFor();
    assert.ok((await cookieNames(context)).includes('token'), 'signed in');
    await openProfileMenu(page);
    await customDomainsUnlocked(page);
    await page.keyboard.press('Escape');

    await page.getByRole('link', { name: 'Go to your console' }).click();
    await page.waitForURL(`${shellUrl}/`);
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();

    // Sign out, then in again with the new account.
    await openProfileMenu(page);
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await page.waitForURL(`${shellUrl}/login`);
    await signIn(page, OWNER.email, OWNER.password);
    await openProfileMenu(page);
    await customDomainsUnlocked(page);
    await page.keyboard.press('Escape');

    // The billing page shows the subscription and its paid invoice.
    await page.goto('/account/billing');
    await page.getByText('GROW UP').first().waitFor();
    await page.getByRole('cell', { name: 'Paid' }).first().waitFor();
    assert.deepEqual(failures, []);
    await context.close();
  });

  test('the same e-mail gets the same answer, and its owner an e-mail saying the account exists', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    await page.goto('/checkout/price_basic1_monthly');
    await page.getByRole('heading', { name: 'Subscribe to BASIC' }).waitFor();
    await page.getByLabel('Community name').fill('Rocket Club Two');
    await page.getByLabel('First name').fill('Rita');
    await page.getByLabel('Last name').fill('Rocket');
    await page.getByLabel('Work e-mail').fill(OWNER.email);
    await page.getByLabel('Password', { exact: true }).fill(OWNER.password);
    await page.getByLabel(/I accept the terms/).check();
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    // Word for word what a new address gets.
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: CHECK_MAIL(OWNER.email) })
      .waitFor();
    const mail = await mailTo(system.dataDir, OWNER.email, /You already have a Community Console account/);
    assert.ok(mail.includes('An account with this e-mail already exists. Sign in instead.'));
    assert.ok(mail.includes(`${shellUrl}/login`), 'a sign-in link');
    assert.equal(PAYMENT_LINK.test(mail), false, 'nothing to pay');
    await context.close();
  });
});
