// Custom sending domains in Chromium against the started system, with the gateway's resolver pointed at
// an authoritative DNS server run by this suite (gateway/test/dns-server.ts): the Lab Rats owner adds a
// domain, publishes the records the page shows (copied from the page into the DNS server), verifies it,
// then writes an e-mail from an address on it and sends a test. The test arrives from that address,
// DKIM-signed with the domain's key, and the signature verifies against the published record. An address
// on a domain the community has not verified is refused in compose.
// Every message the platform sends from its own address is signed with the platform's key (the record the
// gateway prints at start, from the key it generated in its data directory): a campaign from the
// platform's address and a password reset carry the platform's signature, campaigns from the custom
// domain the domain's alone (PLATFORM_DKIM_COSIGN is off by default).
// Mail goes to a real SMTP peer (SMTP_URL), and each signature is checked with mailauth against the DNS
// server, as a receiving mail server does.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startDns, type TestDns } from '../../gateway/test/dns-server.ts';
import { verifyDkim } from '../../gateway/test/dkim-verify.ts';
import { axeViolations } from '../lib/axe.ts';
import { gatewayCall } from '../lib/api.ts';
import { launch, newSession, signIn } from '../lib/browser.ts';
import { startTestSystem } from '../lib/system.ts';
import { startSmtpPeer, type SmtpPeer } from '../../gateway/test/campaign-send-helpers.ts';
import { loadPlatformDkim, platformDkimRecord } from '../../gateway/src/mail/platform-dkim.ts';

let system: Awaited<ReturnType<typeof startTestSystem>>;
let browser: Browser;
let dns: TestDns;
let peer: SmtpPeer;

const DOMAIN = 'news.labrats.example';
const TESTER = 'tester@inbox.example';
const READER = 'reader@inbox.example';
const PLATFORM = ['console.test', 'console1'];
const CUSTOM = [DOMAIN, 'cc1'];

/** The newest message the SMTP peer received for `to` whose subject matches; waits up to 20 s. */
async function receivedBy(to: string, subject: RegExp): Promise<Buffer> {
  for (let i = 0; i < 200; i += 1) {
    const mail = peer.received.findLast(
      (m) => m.to === to && subject.test(/^Subject: (.*)$/m.exec(m.raw.toString('utf8'))?.[1] ?? ''),
    );
    if (mail) return mail.raw;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${to} matching ${subject}`);
}

/** The message's DKIM signatures, top first, as [signing domain, selector]; each must pass. */
async function signatures(raw: Buffer): Promise<string[][]> {
  const results = await verifyDkim(raw, dns.server);
  for (const r of results) assert.equal(r.result, 'pass', `${r.signingDomain}: ${r.info}`);
  return results.map((r) => [r.signingDomain, r.selector]);
}

before(async () => {
  [dns, peer] = await Promise.all([startDns(), startSmtpPeer()]);
  system = await startTestSystem({
    DNS_SERVERS: dns.server,
    DNS_TIMEOUT_MS: '1000',
    SMTP_URL: `smtp://127.0.0.1:${peer.port}`,
  });
  // The platform's record, as the operator publishes it from the gateway's start banner.
  const platform = platformDkimRecord(loadPlatformDkim({}, system.dataDir, 'console.test')!);
  dns.set(platform.name, platform.type, [platform.value]);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await system?.stop();
  await dns?.close();
  await peer?.close();
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

    const raw = await receivedBy(TESTER, /Hello from our own domain/);
    assert.match(raw.toString('utf8'), new RegExp(`^From: .*<hello@${DOMAIN.replace(/\./g, '\\.')}>`, 'im'));
    // The domain's signature on top, the platform's below (docs/domains.md, "Platform signing").
    assert.deepEqual(await signatures(raw), [CUSTOM]);

    // Campaigns to a reader: from the domain (both signatures), and from the platform's address.
    const list = await gatewayCall<{ _id: string }>(page, gateway, 'POST', '/v1/lists', { name: 'Signed readers' });
    await gatewayCall(page, gateway, 'POST', '/v1/contacts', { email: READER, lists: [list._id] });
    for (const [from, subject] of [
      [`hello@${DOMAIN}`, 'Campaign from our domain'],
      ['no-reply@console.test', 'Campaign from the platform'],
    ] as const) {
      const campaign = await gatewayCall<{ _id: string }>(page, gateway, 'POST', '/v1/campaigns', { name: subject });
      await gatewayCall(page, gateway, 'PATCH', `/v1/campaigns/${campaign._id}`, {
        template_id: template._id,
        subject,
        from_email: from,
        audience: { include_lists: [list._id] },
      });
      await gatewayCall(page, gateway, 'POST', `/v1/campaigns/${campaign._id}/send`, {});
    }
    assert.deepEqual(await signatures(await receivedBy(READER, /Campaign from our domain/)), [CUSTOM]);
    assert.deepEqual(await signatures(await receivedBy(READER, /Campaign from the platform/)), [PLATFORM]);

    // The gateway's own e-mail: a password reset.
    const reset = await fetch(`${gateway}/v1/auth/reset-request`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'owner@lab.test' }),
    });
    assert.equal(reset.status, 200);
    assert.deepEqual(await signatures(await receivedBy('owner@lab.test', /password/i)), [PLATFORM]);

    await context.close();
    assert.deepEqual(problems, [], `axe found ${problems.length} problems:\n${problems.join('\n')}`);
  });
});
