// Transactional e-mails in Chromium against the started system: the Acme owner opens Transactional
// E-mails and the seeded receipt template, reads its snippet, sends it through the API from node with
// the session's token, finds it in the gateway's outbox (the system's mail transport) and in the
// template's delivery log, searched by the message id. axe reports nothing on both pages.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { launch, signIn } from '../lib/browser.ts';
import { mailTo } from '../lib/outbox.ts';
import { startTestSystem } from '../lib/system.ts';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const BUYER = 'e2e-transactional-buyer@example.test';

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

async function axe(page: Page, where: string, found: string[]): Promise<void> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(TAGS)
    .exclude('[data-floating-ui-focus-guard]')
    .analyze();
  for (const v of violations) {
    for (const node of v.nodes) found.push(`${where}: ${v.id} ${node.target.join(' ')} — ${node.failureSummary ?? ''}`);
  }
}

describe('transactional e-mails', () => {
  test('open a template, read its snippet, send it through the API, find it in the outbox and the log', async () => {
    const context = await browser.newContext({ baseURL: system.urls.shell, viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const found: string[] = [];
    await signIn(page, 'owner@acme.test', 'owner-pass-2026');

    await page.goto('/engagement/transactional-emails');
    await page.getByRole('heading', { name: 'Transactional E-mails', level: 1 }).waitFor();
    const grid = page.getByRole('table', { name: 'Transactional templates' });
    await grid.getByRole('link', { name: 'Receipt' }).waitFor();
    await page.waitForLoadState('networkidle');
    await axe(page, 'transactional grid', found);

    await grid.getByRole('link', { name: 'Receipt' }).click();
    await page.getByRole('heading', { name: 'Receipt', level: 1 }).waitFor();
    const snippet = page.getByTestId('snippet');
    await snippet.waitFor();
    const curl = (await snippet.textContent()) ?? '';
    assert.match(curl, /\/v1\/transactional\/send/);
    assert.match(curl, /"id": "<order\.id>"/);
    assert.match(curl, /\$CONSOLE_API_KEY/);
    const templateId = /\/engagement\/transactional-emails\/([^/?#]+)/.exec(page.url())?.[1] ?? '';
    await page.waitForLoadState('networkidle');
    await axe(page, 'transactional template', found);

    // From node, as an app would, with the owner's session token in place of a key.
    const token = (await context.cookies()).find((c) => c.name === 'token')?.value ?? '';
    const response = await fetch(`${system.urls.gateway}/v1/transactional/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': 'e2e-1' },
      body: JSON.stringify({
        template_id: templateId,
        to: BUYER,
        data: { order: { id: 'E2E-7', total: '42', currency: 'USDC' } },
      }),
    });
    assert.equal(response.status, 202, await response.clone().text());
    const { message_id } = (await response.json()) as { message_id: string };

    const mail = await mailTo(system.dataDir, BUYER, /E2E-7/);
    assert.match(mail, /Thank you for your order E2E-7: 42 paid with USDC/);

    // The template's log finds it by its message id
    // (its row is written with the 202, so it is there whatever the send's progress).
    await page.getByRole('searchbox', { name: 'Search recipients' }).fill(message_id);
    await page.getByRole('table', { name: 'Recipients' }).getByText(BUYER).waitFor();
    await context.close();
    assert.deepEqual(found, []);
  });
});
