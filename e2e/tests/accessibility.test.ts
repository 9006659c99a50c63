// Accessibility is part of done: axe (WCAG 2.0/2.1/2.2 A and AA) reports nothing on any page of the
// route table (spec section 2) or on the dialogs, menus and slide-overs reachable from them, for the
// logins that can open them. A failure prints each violation: rule, element, what is wrong.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { axeViolations } from '../lib/axe.ts';
import { launch, newSession, signIn } from '../lib/browser.ts';
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

/** Runs axe on the page as it is now; records every violation under `where`. */
async function check(
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
const EMAIL_FRAMES = ['iframe[sandbox=""]'];

async function visit(page: Page, path: string, ready?: () => Promise<unknown>): Promise<void> {
  await page.goto(path);
  await page.locator('main, [role="main"], form').first().waitFor();
  if (ready) await ready();
  await check(page, path);
}

async function session(email: string, password: string): Promise<{ page: Page; context: BrowserContext }> {
  const { page, context } = await newSession(browser, system.urls.shell);
  await signIn(page, email, password);
  return { page, context };
}

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

  test('templates, their dialogs and the designer around its editor (Acme owner)', async () => {
    const { page, context } = await session('owner@acme.test', 'owner-pass-2026');
    await page.goto('/engagement/templates');
    await page.getByRole('table', { name: 'Templates' }).waitFor();
    await check(page, '/engagement/templates (empty)');

    await page.getByRole('button', { name: 'Create template' }).click();
    const create = page.getByRole('dialog', { name: 'Create template' });
    await create.getByRole('radio', { name: 'Newsletter' }).waitFor();
    await check(page, 'create template dialog');
    await create.getByRole('radio', { name: 'Newsletter' }).check();
    await create.getByRole('button', { name: 'Create and open' }).click();
    await page.waitForURL(/\/engagement\/templates\/[^/]+$/);
    await page
      .frameLocator('iframe[title="E-mail design canvas"]')
      .getByText('This month in', { exact: false })
      .first()
      .waitFor();
    await page.locator('[data-testid="save-status"][data-state="saved"]').waitFor();
    await check(page, 'designer', [], { idle: false });
    // A text selected: the editor's toolbar and badge, the component's settings.
    await page
      .frameLocator('iframe[title="E-mail design canvas"]')
      .getByText('This month in', { exact: false })
      .first()
      .click();
    await page.locator('.gjs-toolbar').first().waitFor();
    await check(page, 'designer, a text selected', [], { idle: false });

    await page.getByRole('button', { name: 'Insert a merge tag into the subject' }).click();
    await page.getByRole('menu').waitFor();
    await check(page, 'merge-tag menu', [], { idle: false });
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Versions' }).click();
    await page.getByRole('list', { name: 'Versions' }).waitFor();
    await check(page, 'versions slide-over', [], { idle: false });
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await page.getByRole('dialog', { name: 'Preview' }).locator('iframe').waitFor();
    await check(page, 'preview dialog', EMAIL_FRAMES, { idle: false });
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Send test' }).click();
    await page.getByRole('dialog', { name: 'Send a test' }).waitFor();
    await check(page, 'send a test dialog', [], { idle: false });
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Code', exact: true }).click();
    await page.getByRole('dialog', { name: 'MJML code' }).waitFor();
    await check(page, 'MJML code dialog', [], { idle: false });
    await page.keyboard.press('Escape');

    await page.goto('/engagement/templates');
    await page
      .getByRole('button', { name: /^Rename / })
      .first()
      .waitFor();
    await check(page, '/engagement/templates', EMAIL_FRAMES);
    await page
      .getByRole('button', { name: /^Rename / })
      .first()
      .click();
    await page.getByRole('dialog', { name: 'Rename template' }).waitFor();
    await check(page, 'rename template dialog', EMAIL_FRAMES);
    await page.keyboard.press('Escape');
    await page
      .getByRole('button', { name: /^Delete / })
      .first()
      .click();
    await page.getByTestId('confirm-dialog').waitFor();
    await check(page, 'delete template dialog', EMAIL_FRAMES);
    await page.keyboard.press('Escape');
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
    assert.deepEqual(found, [], `axe found ${found.length} problems:\n${found.join('\n')}`);
  });
});
