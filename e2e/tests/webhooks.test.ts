// Outgoing webhooks in Chromium against the started system (WEBHOOKS_ALLOW_LOOPBACK: a receiver run by
// this suite on 127.0.0.1): the Lab Rats owner (GROW UP, whose plan includes API access) adds an endpoint
// in the console, reveals its secret, sends a test event; the receiver gets it with a signature that
// verifies (HMAC computed here, per Standard Webhooks), and the attempts log shows it. Axe on the page
// and the add dialog.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { axeViolations } from '../lib/axe.ts';
import { launch, newSession, signIn } from '../lib/browser.ts';
import { startTestSystem } from '../lib/system.ts';
import { startReceiver, type TestReceiver } from '../../gateway/src/webhooks/test-receiver.ts';

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
