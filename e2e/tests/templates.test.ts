// Templates and the e-mail designer in Chromium against the started system, with every request that
// would leave this machine failed (and recorded: the test asserts none was even attempted): create a
// template from a starter, edit a text in the designer (GrapesJS + MJML), see it autosaved, reload and
// find it, preview it on a mobile width as a contact, send a test and find it in the gateway's outbox
// with an HTML and a plain-text part. The shell's CSP (no inline script, no eval) holds throughout.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch, signIn } from '../lib/browser.ts';
import { gatewayCall } from '../lib/api.ts';
import { startTestSystem } from '../lib/system.ts';
import { mailTo as mailToIn } from '../lib/outbox.ts';

let system: Awaited<ReturnType<typeof startTestSystem>>;
let browser: Browser;

before(async () => {
  system = await startTestSystem();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await system?.stop();
});

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A context whose requests to anywhere but this machine fail; `outside` lists every one attempted. */
async function offlineContext(): Promise<{ context: BrowserContext; page: Page; outside: string[]; csp: string[] }> {
  const context = await browser.newContext({ baseURL: system.urls.shell, viewport: { width: 1400, height: 900 } });
  const outside: string[] = [];
  const csp: string[] = [];
  await context.route(
    (url) => !LOCAL_HOSTS.has(url.hostname),
    (route) => {
      outside.push(route.request().url());
      return route.abort('blockedbyclient');
    },
  );
  context.on('request', (request) => {
    const url = new URL(request.url());
    if (/^https?:$/.test(url.protocol) && !LOCAL_HOSTS.has(url.hostname) && !outside.includes(request.url())) {
      outside.push(request.url());
    }
  });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) csp.push(message.text());
  });
  return { context, page, outside, csp };
}

/** The newest mail to `to` in the gateway's outbox (e2e/lib/outbox.ts). */
const mailTo = (to: string) => mailToIn(system.dataDir, to);

/** A 1×1 PNG. */
const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** The autosave's state once everything is saved. */
const savedState = (page: Page) => page.locator('[data-testid="save-status"][data-state="saved"]');

const canvas = (page: Page) => page.frameLocator('iframe[title="E-mail design canvas"]');

/**
 * The head's definitions (mj-attributes, mj-title, a head's mj-raw) take no room in the canvas and
 * nothing in them can be hovered or clicked: the head's element is empty to the eye.
 */
async function assertHeadNotDrawn(page: Page): Promise<void> {
  const attributes = canvas(page).locator('mj-attributes');
  await attributes.waitFor({ state: 'attached' });
  assert.equal(await attributes.isVisible(), false, 'mj-attributes is not drawn');
  const drawn = await attributes.evaluate((el) => {
    const head = el.parentElement;
    const box = head?.getBoundingClientRect();
    return { height: box?.height ?? -1, buttons: head?.querySelectorAll('table, a, button').length ?? -1 };
  });
  assert.deepEqual(drawn, { height: 0, buttons: 0 }, 'the head draws nothing');
}

describe('templates and the designer', () => {
  test('create from a starter, edit, autosave, reload, preview on mobile, send a test: nothing leaves localhost', async () => {
    const { context, page, outside, csp } = await offlineContext();
    await signIn(page, 'owner@acme.test', 'owner-pass-2026');

    // The grid: the editor's chunk (GrapesJS, about 2.5 MB) is not loaded here.
    const bigScripts: string[] = [];
    page.on('response', async (response) => {
      if (!/\.js(\?|$)/.test(response.url())) return;
      const length = Number((await response.allHeaders())['content-length'] ?? 0);
      const body = length > 0 ? null : await response.body().catch(() => null);
      if ((body?.length ?? 0) > 1_000_000 || length > 300_000) bigScripts.push(response.url());
    });
    await page.goto('/engagement/templates');
    await page.getByRole('heading', { name: 'Templates', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'Templates' }).waitFor();
    await page.waitForLoadState('networkidle');
    assert.deepEqual(bigScripts, [], 'the templates grid loads no editor code');

    // Create from the newsletter starter: the designer opens.
    await page.getByRole('button', { name: 'Create template' }).click();
    const create = page.getByRole('dialog', { name: 'Create template' });
    // Each starter shows as a thumbnail: the design merged for the community's sample values.
    const starterThumb = create
      .locator('div')
      .filter({ has: page.getByRole('radio', { name: 'Newsletter' }) })
      .filter({ has: page.locator('iframe') })
      .last()
      .locator('iframe[sandbox=""]');
    await starterThumb.waitFor();
    const starterHtml = (await starterThumb.getAttribute('srcdoc')) ?? '';
    assert.match(starterHtml, /Acme DAO/);
    assert.doesNotMatch(starterHtml, /\{\{/);
    await create.getByRole('radio', { name: 'Newsletter' }).check();
    await create.getByRole('textbox', { name: 'Name' }).fill('E2E newsletter');
    await create.getByRole('button', { name: 'Create and open' }).click();
    await page.waitForURL(/\/engagement\/templates\/[^/]+$/);
    const designerUrl = page.url();
    await page.getByRole('heading', { name: 'E2E newsletter' }).waitFor();

    // The "Template created." toast covers none of the designer's header buttons while it shows.
    const toast = page.locator('[data-rht-toaster] [role="status"]').filter({ hasText: 'Template created.' });
    await toast.waitFor();
    const toastBox = await toast.boundingBox();
    assert.ok(toastBox, 'the toast is shown');
    for (const name of ['Code', 'Versions', 'Preview', 'Send test']) {
      const button = page.getByRole('button', { name, exact: true });
      const b = await button.boundingBox();
      assert.ok(b, `${name} is shown`);
      const overlaps: boolean =
        b.x < toastBox.x + toastBox.width &&
        toastBox.x < b.x + b.width &&
        b.y < toastBox.y + toastBox.height &&
        toastBox.y < b.y + b.height;
      assert.equal(overlaps, false, `the toast covers ${name}`);
      const hit: boolean = await button.evaluate((el, at) => el.contains(document.elementFromPoint(at.x, at.y)), {
        x: b.x + b.width / 2,
        y: b.y + b.height / 2,
      });
      assert.ok(hit, `${name} takes the pointer`);
    }
    assert.equal(await toast.count(), 1, 'the toast was still showing');

    // Edit a text in the canvas: double-click starts editing, the new words replace the old ones.
    const heading = canvas(page).getByText('This month in', { exact: false }).first();
    await heading.waitFor();
    // The head's defaults are not drawn as blocks: nothing of mj-attributes shows in the canvas,
    // and the first thing in it is the design's own content.
    await assertHeadNotDrawn(page);
    assert.ok(bigScripts.length >= 1, 'the designer loads the editor chunk');
    // The editor's icon font is bundled (no CDN) and loads under the CSP.
    await page.waitForFunction(() => {
      let loaded = false;
      document.fonts.forEach((f) => {
        if (f.family.replace(/"|'/g, '') === 'FontAwesome' && f.status === 'loaded') loaded = true;
      });
      return loaded;
    });
    await heading.dblclick();
    await page.keyboard.press('ControlOrMeta+A');
    const patched = (pattern: RegExp) =>
      page.waitForResponse(
        (r) => r.request().method() === 'PATCH' && r.status() === 200 && pattern.test(r.request().postData() ?? ''),
      );
    const saved = patched(/gm frens, the e2e edit/);
    await page.keyboard.type('gm frens, the e2e edit');
    // The head's defaults (mj-attributes) are saved with the design, as written.
    const firstSave = JSON.parse((await saved).request().postData() ?? '{}') as { mjml?: string };
    assert.match(
      firstSave.mjml ?? '',
      /<mj-attributes>[\s\S]*<mj-button background-color="#5b4cf0"[\s\S]*<\/mj-attributes>/,
    );
    await savedState(page).waitFor();
    // Typing on after a save goes on at the caret (a save leaves the text being edited alone).
    const savedMore = patched(/gm frens, the e2e edit wagmi/);
    await page.keyboard.type(' wagmi');
    await savedMore;
    // A merge tag from the menu goes in at the caret of the text being edited, and is saved too.
    const withTag = patched(/gm frens, the e2e edit wagmi\{\{ contact\.first_name \| default: \\"\\" \}\}/);
    await page.getByRole('button', { name: 'Insert a merge tag into the text being edited' }).click();
    await page.getByRole('menuitem', { name: /Contact: First name/ }).click();
    await withTag;
    await savedState(page).waitFor();
    // The caret sits after the tag: the next keystrokes go on after it and do not replace it.
    const typedOn = patched(/wagmi\{\{ contact\.first_name \| default: \\"\\" \}\}, version 3/);
    await page.keyboard.type(', version 3');
    await typedOn;
    await savedState(page).waitFor();

    // Reload while that text was still being edited: it is all there. The merge tag shows in the
    // canvas as a chip with the sample contact's value; the design keeps the Liquid as written.
    await page.reload();
    const chip = canvas(page).locator(`[data-console-merge-tag='{{ contact.first_name | default: "" }}']`);
    await chip.waitFor();
    assert.equal(await chip.textContent(), 'Ada');
    assert.match(
      (await chip.evaluate((el) => el.parentElement?.textContent)) ?? '',
      /gm frens, the e2e edit wagmiAda, version 3/,
    );
    await savedState(page).waitFor();
    // Saved exactly as typed: the code view (the MJML the designer saves) has the tag, no chip.
    await page.getByRole('button', { name: 'Code', exact: true }).click();
    const code = page.getByRole('dialog', { name: 'MJML code' });
    const source = await code.getByRole('textbox', { name: 'MJML' }).inputValue();
    assert.ok(source.includes('gm frens, the e2e edit wagmi{{ contact.first_name | default: "" }}, version 3'), source);
    assert.doesNotMatch(source, /data-console-merge-tag|contenteditable/);
    await page.keyboard.press('Escape');
    await code.waitFor({ state: 'hidden' });
    assert.equal(await savedState(page).count(), 1, 'opening the designer changed nothing');

    // The subject: an unknown merge tag is saved and listed as a warning; a Liquid error is refused
    // (400), shown above the canvas, and the last saved version stays.
    const subject = page.getByRole('textbox', { name: 'Subject' });
    await subject.fill('Hi {{ contact.frist_name }}');
    await page.getByTestId('merge-tag-warnings').getByText('contact.frist_name', { exact: false }).waitFor();
    await subject.fill('Hi {{ contact.first_name ');
    const refused = page.getByRole('alert').filter({ hasText: 'The last saved version is kept' });
    await refused.waitFor();
    await page.locator('[data-testid="save-status"][data-state="failed"]').getByText('Not saved').waitFor();
    await subject.fill('Hi {{ contact.first_name }}');
    await savedState(page).waitFor();
    await refused.waitFor({ state: 'detached' });
    // The unknown tag is gone from the warnings (others may stay, e.g. a missing postal address).
    const warnings = (await page.getByTestId('merge-tag-warnings').allTextContents()).join(' ');
    assert.doesNotMatch(warnings, /frist_name/);

    // Reload: the subject is there; the head, loaded from the project data now, is still not drawn
    // and is saved again with the next change.
    await page.reload();
    await canvas(page).getByText('gm frens, the e2e edit wagmi').waitFor();
    await assertHeadNotDrawn(page);
    assert.equal(await page.getByRole('textbox', { name: 'Subject' }).inputValue(), 'Hi {{ contact.first_name }}');

    // Preview on a mobile width, as a contact: merge tags resolved by the server, in a sandboxed iframe.
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = page.getByRole('dialog', { name: 'Preview' });
    await preview.getByRole('button', { name: 'Mobile' }).click();
    const frame = preview.locator('iframe[data-device="mobile"]');
    await frame.waitFor();
    assert.equal(await frame.getAttribute('sandbox'), '');
    const box = await frame.boundingBox();
    assert.equal(Math.round(box?.width ?? 0), 375);
    const inFrame = preview.frameLocator('iframe[data-device="mobile"]');
    await inFrame.getByText('gm frens, the e2e edit').waitFor();
    await inFrame.getByText('Acme DAO', { exact: false }).first().waitFor();
    const option = preview.getByRole('combobox', { name: 'Preview as' }).locator('option').nth(1);
    await option.waitFor({ state: 'attached' });
    const contactValue = await option.getAttribute('value');
    assert.ok(contactValue, 'a contact to preview as');
    const asContact = page.waitForResponse(
      (r) => r.url().endsWith('/preview') && (r.request().postData() ?? '').includes(contactValue),
    );
    await preview.getByRole('combobox', { name: 'Preview as' }).selectOption(contactValue);
    assert.equal((await asContact).status(), 200);
    const html = await inFrame.locator('body').innerHTML();
    assert.doesNotMatch(html, /\{\{/, 'every merge tag is resolved');
    await page.keyboard.press('Escape');
    await preview.waitFor({ state: 'hidden' });

    // Send a test: it reaches the gateway's outbox with an HTML and a plain-text part.
    await page.getByRole('button', { name: 'Send test' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send a test' });
    await dialog.getByRole('textbox', { name: 'Send to' }).fill('e2e-designer@example.test');
    await dialog.getByRole('button', { name: 'Send test' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const mail = await mailTo('e2e-designer@example.test');
    assert.match(mail, /Content-Type: text\/html/i);
    assert.match(mail, /Content-Type: text\/plain/i);
    assert.match(mail, /gm frens, the e2e edit wagmi/);
    assert.doesNotMatch(mail, /\{\{/);

    // Back in the grid, the template's row shows it and its thumbnail.
    await page.goto('/engagement/templates');
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'E2E newsletter' }) });
    await row.waitFor();
    await row.locator('iframe[sandbox=""]').waitFor({ state: 'attached' });
    assert.equal(
      await row.getByRole('link', { name: 'E2E newsletter' }).getAttribute('href'),
      new URL(designerUrl).pathname,
    );

    assert.deepEqual(outside, [], 'no request left localhost');
    assert.deepEqual(csp, [], 'no CSP violation');
    await context.close();
  });

  test('images: uploaded in the image dialog, offered again on the next visit, chosen with one click, alt text saved', async () => {
    const { context, page, outside, csp } = await offlineContext();
    await signIn(page, 'owner@acme.test', 'owner-pass-2026');
    await page.goto('/engagement/templates');
    await page.getByRole('heading', { name: 'Templates', level: 1 }).waitFor();
    const created = await gatewayCall<{ _id: string; version: number }>(
      page,
      system.urls.gateway,
      'POST',
      '/v1/templates',
      { name: 'E2E images' },
    );
    const icon = `${system.urls.gateway}/static/social/x.png`;
    const mjml =
      '<mjml><mj-body><mj-section><mj-column>' +
      `<mj-image src="${icon}" alt="" width="64px"></mj-image><mj-text>Image test</mj-text>` +
      '</mj-column></mj-section></mj-body></mjml>';
    await gatewayCall(page, system.urls.gateway, 'PATCH', `/v1/templates/${created._id}`, {
      mjml,
      base_version: created.version,
    });
    const image = canvas(page).locator(`img[src="${icon}"]`);
    const openDialog = async () => {
      await page.goto(`/engagement/templates/${created._id}`);
      await image.waitFor();
      await savedState(page).waitFor();
      await image.dblclick();
      const dialog = page.getByRole('dialog', { name: 'Choose an image' });
      await dialog.waitFor();
      return dialog;
    };

    // Upload from the dialog: the new image is chosen at once.
    let dialog = await openDialog();
    await dialog
      .locator('input[type="file"]')
      .setInputFiles({ name: 'e2e-hero.png', mimeType: 'image/png', buffer: Buffer.from(TINY_PNG, 'base64') });
    const uploaded = dialog.getByRole('button', { name: 'e2e-hero.png' });
    await uploaded.waitFor();
    assert.equal(await uploaded.getAttribute('aria-pressed'), 'true');
    const src = await uploaded.locator('img').getAttribute('src');
    assert.ok(src?.startsWith(system.urls.gateway), `stored by the gateway: ${src}`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // The next visit offers the upload again; one click chooses it, the next keystrokes are its alt text.
    dialog = await openDialog();
    const offered = dialog.getByRole('button', { name: 'e2e-hero.png' });
    await offered.waitFor();
    assert.equal(await offered.getAttribute('aria-pressed'), 'false');
    await offered.click();
    assert.equal(await offered.getAttribute('aria-pressed'), 'true');
    await dialog.getByRole('textbox', { name: 'Alt text' }).waitFor();
    // Focus is on the alt text field: its label is the one of the focused input.
    await page.waitForFunction(
      () =>
        document.activeElement instanceof HTMLInputElement &&
        document.activeElement.type === 'text' &&
        document.activeElement.labels?.[0]?.textContent === 'Alt text',
    );
    const saved = page.waitForResponse(
      (r) =>
        r.request().method() === 'PATCH' &&
        r.url().includes(created._id) &&
        (r.request().postData() ?? '').includes('A hero image for the e2e'),
    );
    await page.keyboard.type('A hero image for the e2e');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    const response = await saved;
    assert.equal(response.status(), 200, await response.text());
    const body = JSON.parse(response.request().postData() ?? '{}') as { mjml?: string };
    const tag = /<mj-image[^>]*>/.exec(body.mjml ?? '')?.[0] ?? '';
    assert.ok(tag.includes(`src="${src}"`), tag);
    assert.ok(tag.includes('alt="A hero image for the e2e"'), tag);
    await canvas(page).locator(`img[src="${src}"]`).waitFor();

    assert.deepEqual(outside, [], 'no request left localhost');
    assert.deepEqual(csp, [], 'no CSP violation');
    await context.close();
  });

  test("a template's handlers and script URLs never reach the canvas, and are not saved", async () => {
    const { context, page, outside } = await offlineContext();
    // Where each refused inline handler was: the canvas frame (about:blank) must have none.
    const refusedIn: string[] = [];
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', () => console.log(`csp-violation-in ${location.href}`));
    });
    page.on('console', (message) => {
      const where = /^csp-violation-in (.*)$/.exec(message.text())?.[1];
      if (where) refusedIn.push(where);
    });
    await signIn(page, 'owner@acme.test', 'owner-pass-2026');
    await page.goto('/engagement/templates');
    await page.getByRole('heading', { name: 'Templates', level: 1 }).waitFor();
    const created = await gatewayCall<{ _id: string; version: number }>(
      page,
      system.urls.gateway,
      'POST',
      '/v1/templates',
      { name: 'E2E unsafe design' },
    );
    const mjml =
      '<mjml><mj-body><mj-section><mj-column>' +
      '<mj-text>Unsafe text <img src="x.png" onerror="top.__pwned = 1" alt="">' +
      '<a href=" JavaScript:top.__pwned = 2" onclick="top.__pwned = 3">a link</a>' +
      '<iframe src="javascript:top.__pwned = 4"></iframe></mj-text>' +
      '<mj-button href="javascript:top.__pwned = 5">Unsafe button</mj-button>' +
      '<mj-image src="data:text/html,&lt;script&gt;top.__pwned = 6&lt;/script&gt;" alt="x"></mj-image>' +
      '</mj-column></mj-section></mj-body></mjml>';
    await gatewayCall(page, system.urls.gateway, 'PATCH', `/v1/templates/${created._id}`, {
      mjml,
      base_version: created.version,
    });
    await page.goto(`/engagement/templates/${created._id}`);
    const text = canvas(page).getByText('Unsafe text', { exact: false }).first();
    await text.waitFor();
    const unsafe = await text.evaluate(() => {
      const found: string[] = [];
      for (const el of Array.from(document.querySelectorAll('*'))) {
        for (const attr of Array.from(el.attributes)) {
          const value = attr.value.replace(/\s+/g, '').toLowerCase();
          if (attr.name.startsWith('on') || /^(javascript|vbscript):|^data:text\/html/.test(value)) {
            found.push(`${el.tagName.toLowerCase()} ${attr.name}`);
          }
        }
      }
      return found;
    });
    assert.deepEqual(unsafe, [], 'no handler or script URL in the canvas');
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);

    // A change saves the design: what the canvas loaded, so none of it either.
    await text.dblclick();
    await page.keyboard.press('End');
    const saved = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().includes(created._id));
    await page.keyboard.type(' edited');
    const response = await saved;
    assert.equal(response.status(), 200, await response.text());
    const body = JSON.parse(response.request().postData() ?? '{}') as { mjml?: string };
    assert.match(body.mjml ?? '', /Unsafe text/);
    assert.doesNotMatch(body.mjml ?? '', /onerror|onclick|javascript:|data:text\/html/i);
    assert.deepEqual(outside, [], 'no request left localhost');
    assert.deepEqual(
      refusedIn.filter((where) => where === 'about:blank'),
      [],
      'nothing left in the canvas for the CSP to refuse',
    );
    await context.close();
  });
});
