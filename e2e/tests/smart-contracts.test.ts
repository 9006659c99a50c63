// Smart-contract monitoring in Chromium against the started system and its local chain (anvil, the demo
// token): Acme DAO watches the token from the screen, a transfer to a contact's wallet reaches the feed
// decoded with the contact linked, and the contact enters a "holds at least N" segment. Staff without the
// permission see no entry; a BASIC community at its plan's number of contracts gets the upgrade dialog.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createWalletClient, http, parseUnits, type Abi, type Address } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { gatewayCall } from '../lib/api.ts';
import { launch, newSession, signIn } from '../lib/browser.ts';
import { startTestSystem } from '../lib/system.ts';

let system: Awaited<ReturnType<typeof startTestSystem>>;
let browser: Browser;
let token: { address: Address; abi: Abi; symbol: string };

/** anvil's development accounts; account 0 deployed the demo token and holds its supply. */
const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';

before(async () => {
  system = await startTestSystem({ LOCAL_CHAIN: 'on' });
  assert.ok(system.chain, 'the local chain started');
  const described = JSON.parse(
    fs.readFileSync(path.join(system.dataDir, 'local-chain', 'demo-chain.json'), 'utf8'),
  ) as { token: { address: Address; abi: Abi; symbol: string } };
  token = described.token;
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await system?.stop();
});

async function transfer(to: Address, amount: string): Promise<void> {
  const url = system.chain?.url ?? '';
  const wallet = createWalletClient({
    account: mnemonicToAccount(ANVIL_MNEMONIC),
    chain: { ...foundry, rpcUrls: { default: { http: [url] } } },
    transport: http(url),
  });
  await wallet.writeContract({
    address: token.address,
    abi: token.abi,
    functionName: 'transfer',
    args: [to, parseUnits(amount, 18)],
  });
}

interface ContactRow {
  _id: string;
  email: string | null;
  wallet: string | null;
}

/** A demo contact of Acme's with an e-mail and a wallet that holds none of the token yet. */
async function contactWithWallet(page: Page): Promise<ContactRow & { wallet: Address; email: string }> {
  const contacts = await gatewayCall<{ records: ContactRow[] }>(
    page,
    system.urls.gateway,
    'GET',
    '/v1/contacts?perPage=100&sortField=created_at&sortOrder=asc',
  );
  // The first demo contacts hold the token from the start (minted when it was deployed): take the last one.
  const found = contacts.records.filter((c) => c.wallet && c.email).at(-1);
  assert.ok(found?.wallet && found.email, 'a demo contact with a wallet and an e-mail');
  return { ...found, wallet: found.wallet as Address, email: found.email };
}

async function segmentPreviewFor(page: Page, field: string, amount: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Field' }).selectOption({ label: field });
  const box = page.getByRole('textbox', { name: `${field} amount` });
  await box.fill(amount);
}

describe('smart contracts', () => {
  test('watch the token from the screen; a transfer reaches the feed with the contact; the contact enters a segment', async () => {
    const { page, context } = await newSession(browser, system.urls.shell);
    await signIn(page, 'owner@acme.test', 'owner-pass-2026');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Smart Contracts' }).click();
    await page.getByRole('heading', { name: 'Smart Contracts', level: 1 }).waitFor();

    // The seed watches the demo token already: stop watching it, then watch it again from the screen.
    const seeded = page.getByRole('link', { name: /ACME token/ });
    await seeded.click();
    await page.getByRole('button', { name: 'Stop watching' }).click();
    await page
      .getByRole('dialog', { name: /Stop watching/ })
      .getByRole('button', { name: 'Confirm' })
      .click();
    await page.waitForURL(/\/engagement\/smart-contracts$/);
    await page.getByText('No contracts watched yet.').waitFor();

    await page.getByRole('button', { name: 'Watch contract' }).click();
    const dialog = page.getByRole('dialog', { name: 'Watch a contract' });
    await dialog.getByLabel('Contract address').fill(token.address);
    await dialog.getByLabel('Name', { exact: true }).fill('Community token');
    await dialog.getByLabel('ABI').fill(JSON.stringify(token.abi));
    const picker = dialog.getByRole('group', { name: 'Events to watch' });
    const transferBox = picker.getByRole('checkbox', { name: 'Transfer(address,address,uint256)' });
    // Transfer comes picked (the default when the ABI declares it); Approval is left out.
    assert.equal(await transferBox.isChecked(), true);
    assert.equal(await picker.getByRole('checkbox', { name: 'Approval(address,address,uint256)' }).isChecked(), false);
    await dialog.getByRole('button', { name: 'Watch contract' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('link', { name: 'Community token' }).click();
    await page.getByRole('heading', { name: 'Community token', level: 1 }).waitFor();
    await page.getByTestId('watch-state').filter({ hasText: 'Live' }).waitFor({ timeout: 30_000 });

    // Before the transfer: the contact is not in a "holds at least 2" segment.
    const contact = await contactWithWallet(page);
    const segments = await context.newPage();
    await segments.goto('/engagement/segments');
    await segments.getByRole('button', { name: 'Create segment' }).click();
    await segmentPreviewFor(segments, 'Community token: balance', '2');
    // Nobody holds the token as the new contract counts it (it is read from the head on).
    const count = segments.getByTestId('segment-count');
    await count.filter({ hasText: /^0 contacts match$/ }).waitFor({ timeout: 15_000 });
    const table = segments.getByRole('table', { name: 'First matching contacts' });

    await transfer(contact.wallet, '5');

    // The feed shows the decoded Transfer (it refreshes on its own while the contract is live).
    const feed = page.getByRole('table', { name: 'Events' });
    const row = feed.getByRole('row').filter({ has: page.getByRole('link', { name: contact.email }) });
    await row.waitFor({ timeout: 30_000 });
    await row.getByText('Transfer', { exact: true }).waitFor();
    await row.getByText(/^5 [A-Z]+$/).waitFor();
    await row.getByText(contact.wallet, { exact: false }).first().waitFor();
    // The contact's link opens the contact.
    await row.getByRole('link', { name: contact.email }).click();
    await page.waitForURL(/\/engagement\/contacts/);
    const email = page.getByRole('dialog').getByLabel('E-mail', { exact: true });
    await email.waitFor();
    assert.equal(await email.inputValue(), contact.email);

    // The contact now holds 5: it enters the segment.
    await segmentPreviewFor(segments, 'Community token: balance', '3');
    await count.filter({ hasText: /^1 contact matches$/ }).waitFor({ timeout: 15_000 });
    await table.getByText(contact.email).waitFor();
    await context.close();
  });

  test('staff without the permission see no Smart Contracts entry', async () => {
    const { page, context } = await newSession(browser, system.urls.shell);
    await signIn(page, 'staff@acme.test', 'staff-pass-2026');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Contacts' }).waitFor();
    assert.equal(await nav.getByText('Smart Contracts').count(), 0);
    await page.goto('/engagement/smart-contracts');
    await page.waitForURL(`${system.urls.shell}/`);
    await context.close();
  });

  test('a BASIC community at its number of contracts gets the upgrade dialog', async () => {
    const { page, context } = await newSession(browser, system.urls.shell);
    await signIn(page, 'owner@basic.test', 'basic-pass-2026');
    for (const [address, name] of [
      [token.address, 'Token'],
      ['0x0000000000000000000000000000000000000001', 'Another'],
    ]) {
      await gatewayCall(page, system.urls.gateway, 'POST', '/v1/onchain/contracts', {
        chain_id: 31337,
        address,
        name,
        abi: JSON.stringify(token.abi),
        events: ['Transfer(address,address,uint256)'],
        start_block: 0,
      });
    }
    await page.goto('/engagement/smart-contracts');
    await page.getByText('Watching 2 of the 2 contracts your plan includes.').waitFor();
    await page.getByRole('button', { name: 'Watch contract' }).click();
    await page.getByRole('dialog', { name: 'Unlock more features!' }).waitFor();
    assert.equal(await page.getByRole('dialog', { name: 'Watch a contract' }).count(), 0);
    await context.close();
  });
});
