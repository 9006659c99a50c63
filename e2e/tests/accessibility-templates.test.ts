// axe (WCAG 2.0/2.1/2.2 A and AA) on the templates screens, their dialogs and the designer around its
// editor (accessibility.test.ts has every other page; e2e files run side by side).
import { describe, test } from 'node:test';
import { assertNoViolations, check, EMAIL_FRAMES, session, setUpAxeSuite, system } from '../lib/axe-suite.ts';

setUpAxeSuite();

describe('axe reports nothing', () => {
  test('templates, their dialogs and the designer around its editor (Acme owner)', async () => {
    const { page, context } = await session('owner@acme.test', 'owner-pass-2026');
    await page.goto('/engagement/templates');
    await page.getByRole('table', { name: 'Templates' }).waitFor();
    await check(page, '/engagement/templates (empty)');

    await page.getByRole('button', { name: 'Create template' }).click();
    const create = page.getByRole('dialog', { name: 'Create template' });
    await create.getByRole('radio', { name: 'Newsletter' }).waitFor();
    await create.locator('iframe[sandbox=""]').first().waitFor();
    // The starters' thumbnails (left out of the scan) load their images for a while on a busy machine:
    // the dialog is scanned once its choices are there, not when the network is idle.
    await check(page, 'create template dialog', EMAIL_FRAMES, { idle: false });
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
    // GrapesJS's own panels, each view of the side panel with the text selected: styles, settings
    // (traits), layers and blocks. The canvas frame holds the user's design and is scanned too.
    for (const [title, shown] of [
      ['Open Style Manager', '.gjs-sm-sector'],
      ['Settings', '.gjs-trt-trait'],
      ['Open Layer Manager', '.gjs-layer'],
      ['Open Blocks', '.gjs-block'],
    ] as const) {
      await page.locator(`.gjs-pn-views .gjs-pn-btn[title="${title}"]`).click();
      await page.locator(`.gjs-pn-views .gjs-pn-btn.gjs-pn-active[title="${title}"]`).waitFor();
      await page.locator(shown).first().waitFor();
      await check(page, `designer, GrapesJS panel: ${title}`, [], { idle: false });
    }
    // The image dialog, where GrapesJS would open its asset manager: an image's double-click.
    await page.getByRole('button', { name: 'Code', exact: true }).click();
    const code = page.getByRole('dialog', { name: 'MJML code' });
    await code
      .getByRole('textbox', { name: 'MJML' })
      .fill(
        `<mjml><mj-body><mj-section><mj-column><mj-image src="${system.urls.gateway}/static/social/x.png" alt="" width="64px"></mj-image>` +
          '</mj-column></mj-section></mj-body></mjml>',
      );
    await code.getByRole('button', { name: 'Apply changes' }).click();
    await page.frameLocator('iframe[title="E-mail design canvas"]').locator('img').first().dblclick();
    await page.getByRole('dialog', { name: 'Choose an image' }).getByText('No images yet', { exact: false }).waitFor();
    await check(page, 'image dialog', [], { idle: false });
    await page.keyboard.press('Escape');

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

  test('the report', () => {
    assertNoViolations();
  });
});
