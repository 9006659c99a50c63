// The audience in Chromium against the started system: a CSV import with good and bad rows, filtering and a
// bulk add to a list, and a segment whose live count matches the grid filtered the same way.
// Runs as the owner of Lab Rats, a tenant without seeded contacts, so every count is known.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
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

const GOOD_ROWS = [
  'ana@lab.test,0x52908400098527886e0f7030069857d2e4169ee7,Ana,Lee,subscribed',
  'ben@lab.test,,Ben,Ode,subscribed',
  'cy@lab.test,,Cy,Park,unsubscribed',
  ',0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae,Dee,Vault,subscribed',
  'eve@lab.test,0x8ba1f109551bd432803012645ac136ddd64dba72,Eve,Stone,subscribed',
  'fay@lab.test,,Fay,Moss,bounced',
  'gus@lab.test,,Gus,Hale,subscribed',
];
const BAD_ROWS = [
  'not-an-email,,Bad,Mail,subscribed', // invalid e-mail, no wallet
  'hal@lab.test,0x1234,Hal,Short,subscribed', // invalid wallet
  'ana@lab.test,,Ana,Again,subscribed', // duplicate of the first row
  '=HYPERLINK("http://evil.test"),,Formula,Row,subscribed', // a formula: fails, and is defused in the report
];
const CSV = ['email,wallet,first_name,last_name,status', ...GOOD_ROWS, ...BAD_ROWS].join('\n');
const SUBSCRIBED = GOOD_ROWS.filter((row) => row.endsWith(',subscribed')).length;

async function figure(page: Page, label: string): Promise<string> {
  const cell = page
    .getByTestId('import-figures')
    .locator('div')
    .filter({ has: page.locator('dt', { hasText: label }) });
  return (await cell.locator('dd').textContent())?.trim() ?? '';
}

async function showing(page: Page): Promise<string> {
  const line = page.getByText(/^Showing \d+ to \d+ of \d+ results$/);
  await line.first().waitFor();
  return (await line.first().textContent()) ?? '';
}

describe('audience', () => {
  test('a CSV with good and bad rows imports the good ones and reports the bad ones', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    await signIn(page, 'owner@lab.test', 'lab-pass-2026');
    await page.goto('/engagement/contacts/import');
    await page
      .getByLabel('CSV file')
      .setInputFiles({ name: 'members.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
    // The mapping is suggested from the headers.
    await page.getByRole('heading', { name: 'Map columns' }).waitFor();
    assert.equal(await page.getByLabel('Import "email" as').inputValue(), 'email');
    assert.equal(await page.getByLabel('Import "wallet" as').inputValue(), 'wallet');
    await page.getByLabel('Add the contacts to a list').selectOption({ label: 'Create a new list' });
    await page.getByLabel('New list name').fill('Imported members');
    await page.getByRole('button', { name: 'Start import' }).click();

    await page.getByTestId('import-status').filter({ hasText: 'Import complete' }).waitFor({ timeout: 60_000 });
    assert.match(page.url(), /[?&]job=/);
    assert.equal(await figure(page, 'Rows done'), String(GOOD_ROWS.length + BAD_ROWS.length));
    assert.equal(await figure(page, 'Created'), String(GOOD_ROWS.length));
    assert.equal(await figure(page, 'Failed'), String(BAD_ROWS.length));

    // The report of failed rows: reasons, and the formula defused.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download failed rows' }).click(),
    ]);
    const report = fs.readFileSync((await download.path()) ?? '', 'utf8');
    assert.match(report, /Duplicate of row 2/);
    assert.match(report, /'=HYPERLINK/);
    assert.doesNotMatch(report, /(^|,)=HYPERLINK/m);

    // Leaving and coming back shows the same job.
    const jobUrl = page.url();
    await page.goto('/engagement/contacts');
    await page.goto(jobUrl);
    await page.getByTestId('import-status').filter({ hasText: 'Import complete' }).waitFor();

    await page.goto('/engagement/contacts');
    assert.equal(await showing(page), `Showing 1 to ${GOOD_ROWS.length} of ${GOOD_ROWS.length} results`);
    await context.close();
  });

  test('filter the grid and bulk-add the matches to a list', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    await signIn(page, 'owner@lab.test', 'lab-pass-2026');
    await page.goto('/engagement/lists');
    await page.getByRole('button', { name: 'Create list' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('VIP');
    await dialog.getByRole('button', { name: 'Create list' }).click();
    await page.getByRole('link', { name: 'VIP' }).waitFor();

    await page.goto('/engagement/contacts');
    await showing(page); // the unfiltered grid first, so the next line is the filtered one
    await page.getByLabel('Status').selectOption('subscribed');
    await page.getByText(`Showing 1 to ${SUBSCRIBED} of ${SUBSCRIBED} results`, { exact: true }).waitFor();
    await page.getByLabel('Select all contacts on this page').check();
    const bulk = page.getByRole('region', { name: 'Bulk actions' });
    await bulk.getByText(`${SUBSCRIBED} selected`).waitFor();

    // No list chosen: the spec's message, and nothing is sent.
    await bulk.getByRole('button', { name: 'Add to list' }).click();
    await bulk.getByText('You must select a list.').waitFor();

    await bulk.getByLabel('List for the selected contacts').selectOption({ label: 'VIP' });
    await bulk.getByRole('button', { name: 'Add to list' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /added|VIP/i })
      .first()
      .waitFor();

    await page.goto('/engagement/lists');
    const vipRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'VIP' }) });
    await vipRow.getByText(String(SUBSCRIBED), { exact: true }).waitFor();
    await context.close();
  });

  test('a segment counts what the grid filtered the same way shows', async () => {
    const { page, context } = await newSession(browser, shellUrl);
    await signIn(page, 'owner@lab.test', 'lab-pass-2026');

    // The grid: subscribed members of VIP.
    const lists = await page.evaluate(async (gateway) => {
      const token = document.cookie.match(/(?:^|; )token=([^;]+)/)?.[1] ?? '';
      const r = await fetch(`${gateway}/v1/lists?searchString=VIP`, { headers: { Authorization: `Bearer ${token}` } });
      return (await r.json()) as { records: { _id: string; name: string }[] };
    }, system.urls.gateway);
    const vip = lists.records.find((l) => l.name === 'VIP');
    assert.ok(vip, 'the VIP list of the previous test');
    await page.goto(`/engagement/contacts?listId=${vip._id}&status=subscribed`);
    const gridLine = await showing(page);
    const gridCount = Number(/of (\d+) results/.exec(gridLine)?.[1]);
    assert.equal(gridCount, SUBSCRIBED);

    // The same rules in the segment builder.
    await page.goto('/engagement/segments');
    await page.getByRole('button', { name: 'Create segment' }).click();
    await page.getByLabel('Name').fill('Subscribed VIPs');
    // A new segment starts with the rule "status = subscribed"; add list membership to it.
    assert.equal(await page.getByLabel('Status value').inputValue(), 'subscribed');
    await page.getByRole('button', { name: 'Add rule' }).first().click();
    await page.getByTitle('Field').last().selectOption('list');
    await page.getByLabel('List membership value').selectOption({ label: 'VIP' });
    await page
      .getByTestId('segment-count')
      .filter({ hasText: `${gridCount} contact` })
      .waitFor({ timeout: 15_000 });

    await page.getByRole('button', { name: 'Save segment' }).click();
    await page.getByRole('link', { name: 'View contacts' }).first().click();
    await page.waitForURL(/segmentId=/);
    assert.equal(await showing(page), gridLine);
    await context.close();
  });
});
