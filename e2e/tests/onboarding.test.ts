// Onboarding in Chromium against the started system: edit the community page and upload a logo, see it on
// the public page; create a widget, paste its code into a page served on localhost, sign up through it
// with an e-mail (double opt-in through the outbox) and with a wallet (a test EIP-1193 provider backed by
// a viem key), then see the signups count and the new contacts in the target list.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { gatewayCall } from '../lib/api.ts';
import { launch, loadedWidth, newSession, signIn } from '../lib/browser.ts';
import { startTestSystem } from '../lib/system.ts';
import { mailTo as mailToIn } from '../lib/outbox.ts';

let system: Awaited<ReturnType<typeof startTestSystem>>;
let browser: Browser;
let shellUrl: string;
let gatewayUrl: string;

/** A 1×1 PNG: a real image the gateway accepts and the browser decodes. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

before(async () => {
  system = await startTestSystem();
  shellUrl = system.urls.shell;
  gatewayUrl = system.urls.gateway;
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await system?.stop();
});

/** The newest mail to `to` in the gateway's outbox (e2e/lib/outbox.ts). */
const mailTo = (to: string) => mailToIn(system.dataDir, to);

describe('onboarding', () => {
  test('edit the community page, upload a logo and see both on the public page', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    await signIn(page, 'owner@acme.test', 'owner-pass-2026');
    await page.goto('/onboarding/community-page');
    await page.getByLabel('Alias').fill('acme-dao');
    await page.getByLabel('Short description').fill('Builders of <b>open</b> tools');
    await page.getByLabel('What you get, item 1').fill('Weekly alpha');
    await page.getByLabel('Enable community').check();
    await page.getByLabel('List on public page').check();
    await page.getByLabel('Logo').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Changes have been saved.').waitFor();

    // The URL the screen shows is the public page.
    const publicUrl = await page.getByRole('textbox', { name: 'Community page URL' }).inputValue();
    assert.equal(publicUrl, `${gatewayUrl}/c/acme-dao`);
    const visitor = await context.newPage();
    await visitor.goto(publicUrl);
    await visitor.getByText('Builders of <b>open</b> tools').waitFor();
    await visitor.getByText('Weekly alpha').waitFor();
    const logo = visitor.locator(`img[src^="${gatewayUrl}/files/"]`).first();
    await logo.waitFor();
    assert.equal(await loadedWidth(logo), 1, 'the uploaded logo loads');
    // Listed on the public directory, as 'List on public page' is set.
    await visitor.goto(`${gatewayUrl}/c`);
    await visitor.getByRole('link', { name: /Acme DAO/ }).waitFor();
    await context.close();
  });

  test('a widget pasted into a website signs people up by e-mail and by wallet', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    await signIn(page, 'owner@acme.test', 'owner-pass-2026');
    const list = await gatewayCall<{ _id: string }>(page, gatewayUrl, 'POST', '/v1/lists', {
      name: 'Website sign-ups',
    });

    await page.goto('/onboarding/widgets');
    await page.getByRole('button', { name: 'Create a widget' }).click();
    await page.getByLabel('Widget type').selectOption('Subscription Widget');
    await page.getByLabel('Target list').selectOption({ label: 'Website sign-ups' });
    // The site is served below on a port chosen now; the widget is bound to its origin.
    const customer = await serveSiteLater();
    await page.getByLabel('Website URL').fill(customer.url);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Widget saved.').waitFor();
    const dialog = page.getByRole('dialog', { name: 'Widget Code' });
    const snippet = await dialog.getByRole('textbox').inputValue();
    assert.match(snippet, /emt-sdk\.js/);
    assert.match(snippet, /data-wallet-connect-project-id=/);
    await dialog.getByRole('button', { name: 'Close Window' }).click();
    customer.setHtml(`<!doctype html><title>Acme fan site</title><h1>Join us</h1>\n${snippet}\n`);

    // A visitor with an injected wallet (EIP-1193) backed by a test key.
    const account = privateKeyToAccount(generatePrivateKey());
    const visitorContext = await browser.newContext();
    await visitorContext.exposeBinding('__e2eSign', (_source, message: string) => account.signMessage({ message }));
    // A string, not a function: tsx would add helpers to a function's source that the page lacks.
    await visitorContext.addInitScript(`window.ethereum = {
      request: async ({ method, params }) => {
        if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [${JSON.stringify(account.address)}];
        if (method === 'personal_sign') return window.__e2eSign(String(params[0]));
        throw Object.assign(new Error('unsupported ' + method), { code: 4200 });
      },
    };`);
    const visitor = await visitorContext.newPage();
    visitor.setDefaultTimeout(15_000);
    await visitor.goto(customer.url);

    // E-mail: the neutral answer, then the confirmation link from the outbox.
    await visitor.getByLabel('E-mail address').fill('fan@example.test');
    await visitor.getByRole('button', { name: 'Subscribe' }).click();
    await visitor.getByText('Check your inbox to confirm your subscription.').waitFor();
    const link = /(http:\/\/localhost:\d+\/public\/signups\/confirm\?token=[^\s"<>]+)/.exec(
      await mailTo('fan@example.test'),
    )?.[1];
    assert.ok(link, 'the confirmation mail carries a link');
    const confirmed = await visitor.context().newPage();
    const res = await confirmed.goto(link);
    assert.equal(res?.status(), 200);

    // Wallet: sign the challenge with the injected provider.
    await visitor.getByRole('button', { name: 'Sign up with your wallet' }).click();
    await visitor.getByText('You are signed up.').waitFor();
    await visitorContext.close();
    await customer.close();

    // The console: two sign-ups on the widget, two new contacts in the target list.
    await page.goto('/onboarding/widgets');
    const row = page.getByRole('row').filter({ hasText: customer.url });
    await row.getByRole('cell', { name: '2', exact: true }).waitFor();
    await page.goto(`/engagement/lists/${list._id}`);
    await page.getByText('fan@example.test').waitFor();
    // The grid shows wallets shortened, with the whole address on the copy button.
    await page.getByRole('button', { name: `Copy wallet address ${account.address}` }).waitFor();
    await context.close();
  });
});

/**
 * A customer's website on localhost: one page, set once the widget code exists (the widget is created
 * for the site's origin first).
 */
async function serveSiteLater(): Promise<{ url: string; setHtml: (html: string) => void; close: () => Promise<void> }> {
  let html = '<!doctype html><title>not yet</title>';
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    setHtml: (next) => {
      html = next;
    },
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
