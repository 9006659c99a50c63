// API access in Chromium against the started system, one system for the four suites (WEBHOOKS_ALLOW_LOOPBACK:
// a receiver run here on 127.0.0.1):
// - API keys: the Lab Rats owner (GROW UP, the demo tenant of API access) creates a key, sees its secret
//   once in the copy field, calls GET /v1/contacts with it from node and through /docs "Try it out",
//   revokes it in the console and the next call is 401; a member without api_access never reaches the page.
// - Webhooks: an endpoint added in the console gets a test event whose signature verifies (Standard
//   Webhooks, HMAC computed here), and the attempts log shows it.
// - Transactional e-mails: the Acme owner opens the seeded receipt, reads its snippet, sends it through the
//   API and finds it in the outbox and in the template's log, by its message id.
// - The whole path: a sending key made in the console sends the receipt through the API; the message
//   reaches the outbox and the template's log, the webhook of its delivery reaches the receiver naming the
//   message the API answered, and once the key is revoked the next send is refused.
// axe reports nothing on the pages and dialogs.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { axeViolations } from '../lib/axe.ts';
import { launch, newSession, signIn } from '../lib/browser.ts';
import { mailTo } from '../lib/outbox.ts';
import { startTestSystem } from '../lib/system.ts';
import { startReceiver, type TestReceiver } from '../../gateway/src/webhooks/test-receiver.ts';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const BUYER = 'e2e-transactional-buyer@example.test';

let system: Awaited<ReturnType<typeof startTestSystem>>;
let browser: Browser;
let receiver: TestReceiver;

before(async () => {
  receiver = await startReceiver();
  system = await startTestSystem({ WEBHOOKS_ALLOW_LOOPBACK: '1' });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await system?.stop();
  await receiver?.close();
});

const contactsWith = (secret: string) =>
  fetch(`${system.urls.gateway}/v1/contacts?perPage=1`, { headers: { authorization: `Bearer ${secret}` } });

async function axe(page: Page, where: string, found: string[]): Promise<void> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(TAGS)
    .exclude('[data-floating-ui-focus-guard]')
    .analyze();
  for (const v of violations) {
    for (const node of v.nodes) found.push(`${where}: ${v.id} ${node.target.join(' ')} — ${node.failureSummary ?? ''}`);
  }
}

describe('API keys', () => {
  test('create a key, use it from a back end, revoke it: the next call is refused', async () => {
    const { page, context } = await newSession(browser, system.urls.shell);
    const violations: string[] = [];
    await signIn(page, 'owner@lab.test', 'lab-pass-2026');
    await page.goto('/account/api-access');
    await page.getByRole('heading', { name: 'API Access', level: 1 }).waitFor();
    await page.getByText('No API keys yet.', { exact: false }).waitFor();
    violations.push(...(await axeViolations(page, 'API Access (empty)')));

    await page.getByRole('button', { name: 'Create key', exact: true }).click();
    const create = page.getByRole('dialog', { name: 'Create API key' });
    await create.waitFor();
    violations.push(...(await axeViolations(page, 'Create API key dialog')));
    await create.getByLabel('Name').fill('Shop back end');
    await create.getByRole('radio', { name: 'Contacts' }).check();
    await create.getByRole('button', { name: 'Create key' }).click();

    const shown = page.getByRole('dialog', { name: 'Your new API key' });
    await shown.waitFor();
    const field = shown.getByRole('textbox', { name: 'Secret of Shop back end' });
    const secret = await field.inputValue();
    assert.match(secret, /^ck_live_[0-9A-Za-z]{43}$/);
    violations.push(...(await axeViolations(page, 'New key dialog')));

    const used = await contactsWith(secret);
    assert.equal(used.status, 200, await used.text());

    // The API reference's "Try it out" with the key (swagger-ui's Authorize dialog).
    const docs = await context.newPage();
    await docs.goto(`${system.urls.gateway}/docs/#/contacts/getContacts`);
    const operation = docs.locator('#operations-contacts-getContacts');
    await operation.getByRole('button', { name: 'Try it out' }).waitFor();
    await docs.locator('.auth-wrapper .authorize').click();
    const auth = docs.locator('.auth-container').filter({ hasText: 'apiKey' });
    await auth.locator('input').fill(secret);
    await auth.getByRole('button', { name: 'Apply credentials' }).click();
    await auth.getByRole('button', { name: 'Close' }).click();
    // Authorizing redraws the reference from the top, drawing sections as they scroll into view.
    for (let i = 0; i < 100 && (await operation.count()) === 0; i++) await docs.mouse.wheel(0, 600);
    const tryIt = operation.getByRole('button', { name: 'Try it out' });
    if (!(await tryIt.isVisible())) await operation.locator('.opblock-summary-control').click();
    await tryIt.click();
    await operation.getByRole('button', { name: 'Execute' }).click();
    await operation.getByText('Server response').waitFor();
    const answer = await operation.locator('.responses-wrapper').innerText();
    assert.match(answer, /Server response\s+Code\s+Details\s+200\b/, answer);
    assert.match(answer, /Authorization: Bearer ck_live_/);
    await docs.close();

    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });
    assert.equal(await page.getByText(secret.slice(16)).count(), 0);
    const row = page.getByRole('table', { name: 'API keys' }).getByRole('row', { name: /Shop back end/ });
    await row.waitFor();
    violations.push(...(await axeViolations(page, 'API Access (one key)')));

    await row.getByRole('button', { name: 'Revoke Shop back end' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke Shop back end?' });
    await confirm.waitFor();
    violations.push(...(await axeViolations(page, 'Revoke dialog')));
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await confirm.waitFor({ state: 'detached' });
    await row.getByText('Revoked').waitFor();

    const refused = await contactsWith(secret);
    assert.equal(refused.status, 401);
    assert.deepEqual(await refused.json(), { message: 'This API key was revoked.' });

    // The audit list: created, first used, revoked.
    const activity = page.getByRole('table', { name: 'Key activity' });
    await activity.getByText(/^Revoked Shop back end/).waitFor();
    await activity.getByText(/^Created Shop back end/).waitFor();
    assert.deepEqual(violations, []);
    await context.close();
  });

  test('a member without api_access does not reach the page', async () => {
    const { page, context, requests } = await newSession(browser, system.urls.shell);
    await signIn(page, 'staff@acme.test', 'staff-pass-2026');
    await page.goto('/account/api-access');
    await page.waitForURL(`${system.urls.shell}/`);
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'API Access', level: 1 }).count(), 0);
    assert.ok(!requests.some((url) => url.includes('/v1/api-keys')), 'the keys were not asked for');
    await context.close();
  });
});

describe('webhooks', () => {
  test('add an endpoint, send a test event, see it signed at the receiver and in the log', async () => {
    const { page, context } = await newSession(browser, system.urls.shell);
    await signIn(page, 'owner@lab.test', 'lab-pass-2026');
    const problems: string[] = [];

    await page.goto('/account/api-access/webhooks');
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    problems.push(...(await axeViolations(page, '/account/api-access/webhooks')));

    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add endpoint' });
    await dialog.waitFor();
    problems.push(...(await axeViolations(page, 'add endpoint dialog')));
    await dialog.getByLabel('Endpoint URL').fill(receiver.url);
    await dialog.getByRole('checkbox', { name: /^Sent/ }).check();
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByRole('heading', { name: receiver.url, level: 2 }).waitFor();

    await page.getByRole('button', { name: 'Reveal secret' }).click();
    const secret = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    assert.match(secret, /^whsec_/);

    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText(/^Test event delivered: the endpoint answered 200/).waitFor();
    const [got] = await receiver.waitFor(1);
    assert.ok(got);
    const id = String(got.headers['webhook-id']);
    const timestamp = String(got.headers['webhook-timestamp']);
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${got.body}`).digest('base64');
    assert.equal(got.headers['webhook-signature'], `v1,${expected}`);
    assert.equal(JSON.parse(got.body).type, 'webhook.test');

    const log = page.getByRole('table', { name: 'Delivery attempts' });
    await log.getByText(id).waitFor();
    await log.getByRole('cell', { name: '200', exact: true }).waitFor();
    problems.push(...(await axeViolations(page, 'endpoint detail')));
    assert.deepEqual(problems, [], `axe found ${problems.length} problems:\n${problems.join('\n')}`);
    await context.close();
  });
});

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

describe('the whole path', () => {
  test('a key made in the console sends a receipt: outbox, log, webhook; revoked, the next send is refused', async () => {
    const { page, context } = await newSession(browser, system.urls.shell);
    await signIn(page, 'owner@lab.test', 'lab-pass-2026');
    const token = (await context.cookies()).find((c) => c.name === 'token')?.value ?? '';
    const asOwner = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    // An endpoint for the delivery events (the console's own path is the webhooks suite above).
    const endpoint = await fetch(`${system.urls.gateway}/v1/webhooks/endpoints`, {
      method: 'POST',
      headers: asOwner,
      body: JSON.stringify({ url: receiver.url, events: ['sent', 'delivered'], description: 'Shop' }),
    });
    assert.equal(endpoint.status, 201, await endpoint.clone().text());

    // 1. A sending key, made in the console.
    await page.goto('/account/api-access');
    await page.getByRole('heading', { name: 'API Access', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Create key', exact: true }).click();
    const create = page.getByRole('dialog', { name: 'Create API key' });
    await create.getByLabel('Name').fill('Shop sender');
    await create.getByRole('radio', { name: 'Sending only' }).check();
    await create.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('dialog', { name: 'Your new API key' });
    const secret = await shown.getByRole('textbox', { name: 'Secret of Shop sender' }).inputValue();
    await shown.getByRole('button', { name: 'Done' }).click();
    const asShop = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };

    // 2. The shop's back end finds the receipt and sends it with the key.
    const templates = await fetch(`${system.urls.gateway}/v1/transactional/templates`, { headers: asShop });
    assert.equal(templates.status, 200, await templates.clone().text());
    const { records } = (await templates.json()) as { records: { _id: string; name: string }[] };
    const receipt = records.find((t) => t.name === 'Receipt');
    assert.ok(receipt, 'Lab Rats has the demo receipt');
    const send = (key: string) =>
      fetch(`${system.urls.gateway}/v1/transactional/send`, {
        method: 'POST',
        headers: { ...asShop, 'idempotency-key': key },
        body: JSON.stringify({
          template_id: receipt._id,
          to: 'shop-buyer@example.test',
          data: { order: { id: 'LAB-9', total: '7', currency: 'ETH' } },
        }),
      });
    const sent = await send('lab-order-9');
    assert.equal(sent.status, 202, await sent.clone().text());
    const { message_id } = (await sent.json()) as { message_id: string };

    // 3. At the mail transport, and in the template's log.
    assert.match(await mailTo(system.dataDir, 'shop-buyer@example.test', /LAB-9/), /order LAB-9: 7 paid with ETH/);
    await page.goto(`/engagement/transactional-emails/${receipt._id}`);
    await page.getByRole('searchbox', { name: 'Search recipients' }).fill(message_id);
    await page.getByRole('table', { name: 'Recipients' }).getByText('shop-buyer@example.test').waitFor();

    // 4. The webhook of its delivery names the message the API answered.
    const deadline = Date.now() + 30_000;
    const ours = () =>
      receiver.received
        .map((r) => JSON.parse(r.body) as { type: string; data: { transactional_message_id?: string | null } })
        .find((e) => e.data.transactional_message_id === message_id);
    while (!ours() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.match(ours()?.type ?? 'none', /^email\.(sent|delivered)$/);

    // 5. Revoked in the console: the next call is refused.
    await page.goto('/account/api-access');
    const row = page.getByRole('table', { name: 'API keys' }).getByRole('row', { name: /Shop sender/ });
    await row.getByRole('button', { name: 'Revoke Shop sender' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke Shop sender?' });
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await row.getByText('Revoked').waitFor();
    const refused = await send('lab-order-10');
    assert.equal(refused.status, 401);
    await context.close();
  });
});
