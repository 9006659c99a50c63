// Accessibility is part of done: axe (WCAG 2.0/2.1/2.2 A and AA) reports nothing on any page of the
// route table (spec section 2) or on the dialogs, menus and slide-overs reachable from them, for the
// logins that can open them. A failure prints each violation: rule, element, what is wrong.
// The templates screens and the designer are in accessibility-templates.test.ts (e2e files run side by side).
import { describe, test } from 'node:test';
import { assertNoViolations, browser, check, session, setUpAxeSuite, system, visit } from '../lib/axe-suite.ts';
import { newSession } from '../lib/browser.ts';
import { gatewayCall } from '../lib/api.ts';

setUpAxeSuite();

describe('axe reports nothing', () => {
  test('signed-out pages', async () => {
    const { page, context } = await newSession(browser, system.urls.shell);
    for (const path of [
      '/login',
      '/reset',
      '/reset/00000000-0000-4000-8000-000000000000/abc',
      '/sign-in/00000000-0000-4000-8000-000000000000/abc',
      '/confirm-email',
    ]) {
      await visit(page, path);
    }
    await visit(page, '/checkout/price_growup1_monthly', () => page.getByLabel('Community name').waitFor());
    await context.close();
  });

  test('tenant pages and their dialogs (Acme owner)', async () => {
    const { page, context } = await session('owner@acme.test', 'owner-pass-2026');
    await check(page, '/ (overview)');
    const paths = [
      '/engagement/contacts',
      '/engagement/contacts/import',
      '/engagement/lists',
      '/engagement/segments',
      '/engagement/smart-contracts',
      '/engagement/custom-attributes',
      '/engagement/emails',
      '/engagement/emails/compose',
      '/engagement/emails/log/1',
      '/engagement/automations',
      '/engagement/templates',
      '/engagement/templates/1',
      '/engagement/transactional-emails',
      '/onboarding/widgets',
      '/onboarding/community-page',
      '/onboarding/sso',
      '/account/users',
      '/account/profile',
      '/account/change-password',
      '/account/general-settings',
      '/account/billing',
      '/account/api-access',
    ];
    for (const path of paths) await visit(page, path);

    // A list's detail page.
    await page.goto('/engagement/lists');
    await page.getByRole('link', { name: 'Newsletter' }).first().click();
    await page.waitForURL(/\/engagement\/lists\/[0-9a-f-]+$/);
    await check(page, '/engagement/lists/:id');

    // The contact slide-over.
    await page.goto('/engagement/contacts');
    await page
      .getByRole('button', { name: /Add contact/i })
      .first()
      .click();
    await page.getByRole('dialog').waitFor();
    await check(page, 'contact slide-over');
    await page.keyboard.press('Escape');

    // The widget slide-over.
    await page.goto('/onboarding/widgets');
    await page.getByRole('button', { name: 'Create a widget' }).click();
    await page.getByRole('dialog').waitFor();
    await check(page, 'widget slide-over');
    await page.keyboard.press('Escape');

    // The header's profile menu, a locked entry's upgrade dialog, the plan picker and its confirmation.
    await page.goto('/account/billing');
    await page.getByRole('button', { name: /profile menu/ }).click();
    await page.getByRole('menu').waitFor();
    await check(page, 'profile menu');
    await page.getByRole('menuitem', { name: 'Custom Domains' }).click();
    await page.getByRole('dialog', { name: 'Unlock more features!' }).waitFor();
    await check(page, 'upgrade dialog');
    await page.getByRole('button', { name: 'Upgrade Your Plan', exact: true }).click();
    const picker = page.getByRole('dialog', { name: 'Change your plan' });
    await picker.waitFor();
    await check(page, 'plan picker');
    await picker.getByRole('button', { name: 'Sign-up' }).last().click();
    await page.getByRole('button', { name: 'Pay & Upgrade' }).waitFor();
    await check(page, 'confirm plan dialog');
    await context.close();
  });

  test('a tenant without billing: Contact your account manager; the mobile sidebar', async () => {
    const { page, context } = await session('owner@basic.test', 'basic-pass-2026');
    await page.goto('/account/billing');
    await page.getByRole('button', { name: 'Change plan' }).click();
    await page.getByRole('dialog', { name: 'Contact your account manager' }).waitFor();
    await check(page, 'contact your account manager');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await page
      .getByRole('button', { name: /menu|sidebar/i })
      .first()
      .click();
    await page.waitForTimeout(350);
    await check(page, 'mobile sidebar');
    await context.close();
  });

  test("a GROW UP owner's team pages: Manage Users' Activity tab", async () => {
    const { page, context } = await session('owner@lab.test', 'lab-pass-2026');
    await visit(page, '/account/users/activity', () =>
      page.getByRole('heading', { name: 'Team activity', level: 1 }).waitFor(),
    );
    await context.close();
  });

  test("Smart Contracts: the watch dialog with its event picker, a contract's page, stop watching", async () => {
    const { page, context } = await session('owner@acme.test', 'owner-pass-2026');
    const transfer = { name: 'Transfer', type: 'event', inputs: [{ name: 'to', type: 'address', indexed: true }] };
    // No chain runs in this suite: the contract is watched from block 0, and its page shows the RPC's error.
    const contract = await gatewayCall<{ _id: string }>(page, system.urls.gateway, 'POST', '/v1/onchain/contracts', {
      chain_id: 31337,
      address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      name: 'Axe token',
      abi: JSON.stringify([transfer]),
      events: ['Transfer(address)'],
      start_block: 0,
    });
    await visit(page, '/engagement/smart-contracts', () => page.getByRole('link', { name: 'Axe token' }).waitFor());
    await page.getByRole('button', { name: 'Watch contract' }).click();
    const dialog = page.getByRole('dialog', { name: 'Watch a contract' });
    await dialog.getByLabel('ABI').fill(JSON.stringify([transfer]));
    await dialog.getByRole('group', { name: 'Events to watch' }).waitFor();
    await check(page, 'watch contract dialog');
    await dialog.getByLabel('ABI').fill('[{');
    await check(page, 'watch contract dialog, ABI not valid');
    await page.keyboard.press('Escape');
    await visit(page, `/engagement/smart-contracts/${contract._id}`, () =>
      page.getByRole('heading', { name: 'Axe token', level: 1 }).waitFor(),
    );
    await page.getByRole('button', { name: 'Stop watching' }).click();
    await page.getByRole('dialog', { name: /Stop watching/ }).waitFor();
    await check(page, 'stop watching dialog');
    await context.close();
  });

  test('platform admin pages (super admin)', async () => {
    const { page, context } = await session('admin@console.test', 'admin-pass-2026');
    await check(page, '/ (admin overview)');
    for (const path of [
      '/tenants',
      '/plans',
      '/applets',
      '/applets/1',
      '/advertising/emails',
      '/advertising/staking',
    ]) {
      await visit(page, path);
    }
    await visit(page, '/advertising/emails/compose');
    await context.close();
  });

  test('the report', () => {
    assertNoViolations();
  });
});
