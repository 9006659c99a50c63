// API Access in Chromium against the started system: the Lab Rats owner (GROW UP, the demo tenant of API
// access) creates a key, sees its secret once in the copy field, calls GET /v1/contacts with it from node,
// revokes it in the console and the next call is 401; axe on the page and its dialogs. A member without
// api_access never reaches the page.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { axeViolations } from '../lib/axe.ts';
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

const contactsWith = (secret: string) =>
  fetch(`${system.urls.gateway}/v1/contacts?perPage=1`, { headers: { authorization: `Bearer ${secret}` } });

describe('API keys', () => {
  test('create a key, use it from a back end, revoke it: the next call is refused', async () => {
    const { page, context } = await newSession(browser, shellUrl);
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
    const { page, context, requests } = await newSession(browser, shellUrl);
    await signIn(page, 'staff@acme.test', 'staff-pass-2026');
    await page.goto('/account/api-access');
    await page.waitForURL(`${shellUrl}/`);
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'API Access', level: 1 }).count(), 0);
    assert.ok(!requests.some((url) => url.includes('/v1/api-keys')), 'the keys were not asked for');
    await context.close();
  });
});
