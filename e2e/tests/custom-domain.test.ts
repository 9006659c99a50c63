// Custom sending domains in Chromium against the started system, with the gateway's resolver pointed at
// an authoritative DNS server run by this suite (gateway/test/dns-server.ts): the Lab Rats owner adds a
// domain, publishes the records the page shows (copied from the page into the DNS server), verifies it,
// then writes an e-mail from an address on it and sends a test. The test arrives from that address,
// DKIM-signed with the domain's key, and the signature verifies against the published record. An address
// on a domain the community has not verified is refused in compose.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startDns, type TestDns } from '../../gateway/test/dns-server.ts';
import { verifyDkim } from '../../gateway/test/dkim-verify.ts';
import { axeViolations } from '../lib/axe.ts';
import { gatewayCall } from '../lib/api.ts';
import { launch, newSession, signIn } from '../lib/browser.ts';
import { rawMailTo } from '../lib/outbox.ts';
import { startTestSystem } from '../lib/system.ts';

let system: Awaited<ReturnType<typeof startTestSystem>>;
let browser: Browser;
let dns: TestDns;

const DOMAIN = 'news.labrats.example';
const TESTER = 'tester@inbox.example';

before(async () => {
  dns = await startDns();
  system = await startTestSystem({ DNS_SERVERS: dns.server, DNS_TIMEOUT_MS: '1000' });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await system?.stop();
  await dns?.close();
});

describe('custom sending domain', () => {
  test('add a domain, publish its records, verify, and send a signed test from it', async () => {
    const { page, context } = await newSession(browser, system.urls.shell);
    await signIn(page, 'owner@lab.test', 'lab-pass-2026');
    const problems: string[] = [];

    await page.goto('/account/custom-domains');
    await page.getByRole('heading', { name: 'Custom Domains', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Add domain' }).click();
    const add = page.getByRole('dialog', { name: 'Add domain' });
    await add.getByRole('textbox', { name: 'Domain' }).fill(DOMAIN);
    await add.getByRole('button', { name: 'Add domain' }).click();
    await add.waitFor({ state: 'detached' });
    const records = page.getByRole('list', { name: `DNS records of ${DOMAIN}` });
    await records.waitFor();
    // The records have an address of their own: a reload keeps them, back returns to the list.
    await page.waitForURL(/\/account\/custom-domains\/[0-9a-f-]+$/);
    await page.reload();
    await records.waitFor();
    problems.push(...(await axeViolations(page, '/account/custom-domains/:domain_id')));
    await page.goBack();
    await page.getByRole('table', { name: 'Sending domains' }).waitFor();
    await page.goForward();
    await records.waitFor();

    // Publish what the page shows, as the owner would at their DNS provider.
    for (const label of ['Ownership', 'SPF', 'DKIM']) {
      const item = records.getByRole('listitem', { name: `${label} record` });
      const name = await item.getByRole('textbox', { name: `${label} record name` }).inputValue();
      const value = await item.getByRole('textbox', { name: `${label} record value` }).inputValue();
      dns.set(name, 'TXT', [value]);
    }
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `${DOMAIN} is verified. You can send from it.` })
      .waitFor();

    // Compose: a template and a draft, then the From address in Settings.
    const gateway = system.urls.gateway;
    const template = await gatewayCall<{ _id: string }>(page, gateway, 'POST', '/v1/templates', {
      name: 'Domain test design',
      kind: 'marketing',
      starter: 'newsletter',
    });
    const draft = await gatewayCall<{ _id: string }>(page, gateway, 'POST', '/v1/campaigns', {
      name: 'From our domain',
    });
    await gatewayCall(page, gateway, 'PATCH', `/v1/campaigns/${draft._id}`, {
      template_id: template._id,
      subject: 'Hello from our own domain',
    });
    await page.goto(`/engagement/emails/compose/${draft._id}`);
    await page.getByRole('tab', { name: /Settings/ }).click();
    const from = page.getByRole('textbox', { name: 'From address' });
    await page.getByText(`Or any address at ${DOMAIN} (your verified domains).`).waitFor();
    await from.fill('hello@elsewhere.example');
    await page.getByText(/verified domains \(Custom Domains\)/).waitFor();
    await from.fill(`hello@${DOMAIN}`);
    await page.locator('[data-testid="save-status"][data-state="saved"]').waitFor();
    problems.push(...(await axeViolations(page, 'compose settings with a domain')));

    await page.getByRole('tab', { name: /Review/ }).click();
    await page.getByRole('button', { name: 'Send a test' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send a test' });
    await dialog.getByRole('textbox', { name: 'Send to' }).fill(TESTER);
    await dialog.getByRole('button', { name: 'Send test' }).click();
    await dialog.waitFor({ state: 'detached' });

    const raw = await rawMailTo(system.dataDir, TESTER, /Hello from our own domain/);
    assert.match(raw.toString('utf8'), new RegExp(`^From: .*<hello@${DOMAIN.replace(/\./g, '\\.')}>`, 'im'));
    const [signature] = await verifyDkim(raw, dns.server);
    assert.equal(signature?.result, 'pass', signature?.info);
    assert.equal(signature?.signingDomain, DOMAIN);

    await context.close();
    assert.deepEqual(problems, [], `axe found ${problems.length} problems:\n${problems.join('\n')}`);
  });
});
