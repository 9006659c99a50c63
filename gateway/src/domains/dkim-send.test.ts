// Every message the platform sends is DKIM-signed with the platform's key (mail/signing-keys.ts):
// campaigns, test sends and the gateway's own e-mails. A campaign from an address at a verified sending
// domain is signed with that domain's key too, on top. Each signature verifies against its DNS record,
// served by a local authoritative server: the console's record for the custom domain, the record the
// gateway prints at start for the platform's.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Campaign, DnsRecord, SendingDomain, Template } from '../contracts';
import { SENDER_NOT_VERIFIED } from './senders';
import { enqueueCampaign } from '../campaigns/sender/queue';
import { type ErrorBody, startGateway, type TestGateway } from '../../test/helpers';
import { call, tenantId } from '../../test/audience-helpers';
import {
  createCampaign,
  createList,
  generousPlans,
  insertContacts,
  parseMail,
  startSmtpPeer,
  TEMPLATE_MJML,
  waitForStatus,
  type SmtpPeer,
} from '../../test/campaign-send-helpers';
import { startDns, type TestDns } from '../../test/dns-server';
import { verifyDkim } from '../../test/dkim-verify';
import { platformDkimRecord } from '../mail/platform-dkim';

let peer: SmtpPeer;
let dns: TestDns;
let gw: TestGateway;
let lab: string;
let labId: string;
let templateId: string;

before(async () => {
  [peer, dns] = await Promise.all([startSmtpPeer(), startDns()]);
  gw = await startGateway({
    SMTP_URL: `smtp://127.0.0.1:${peer.port}`,
    DNS_SERVERS: dns.server,
    DNS_TIMEOUT_MS: '1000',
    JOBS_POLL_SECONDS: '0.5',
    // Mail from a verified domain is signed by the platform too (the end-to-end suite covers the default).
    PLATFORM_DKIM_COSIGN: 'on',
  });
  assert.ok(gw.config.platformDkim);
  const platform = platformDkimRecord(gw.config.platformDkim);
  dns.set(platform.name, platform.type, [platform.value]);
  lab = await gw.login('labOwner');
  labId = await tenantId(gw, 'Lab Rats');
  await generousPlans(gw.handle.db);
  const created = await call<Template>(gw, 'POST', '/v1/templates', lab, { name: 'Signed body' });
  assert.equal(created.status, 201, created.text);
  const saved = await call(gw, 'PATCH', `/v1/templates/${created.body._id}`, lab, {
    subject: 'Template subject',
    preview_text: 'Preview',
    mjml: TEMPLATE_MJML,
  });
  assert.equal(saved.status, 200, saved.text);
  templateId = created.body._id;
});
after(async () => {
  await gw?.close();
  await peer?.close();
  await dns?.close();
});

const record = (d: SendingDomain, kind: DnsRecord['kind']) => {
  const r = d.records.find((x) => x.kind === kind);
  assert.ok(r, kind);
  return r;
};

async function sendFrom(fromEmail: string, prefix: string): Promise<Buffer[]> {
  const list = await createList(gw.handle.db, labId, `Readers ${prefix}`);
  await insertContacts(gw.handle.db, labId, 2, prefix, { listId: list });
  const id = await createCampaign(gw.handle.db, {
    tenantId: labId,
    templateId,
    audience: { include_lists: [list] },
    fromEmail,
  });
  await enqueueCampaign(gw.app.deps.jobs, id);
  await waitForStatus(gw.handle.db, id, 'sent');
  return peer.received.filter((m) => m.to.startsWith(prefix)).map((m) => m.raw);
}

/** The message's DKIM signatures, top first, as [signing domain, selector]; each must pass. */
async function signatures(raw: Buffer): Promise<string[][]> {
  const results = await verifyDkim(raw, dns.server);
  for (const r of results) assert.equal(r.result, 'pass', `${r.signingDomain}: ${r.info}`);
  return results.map((r) => [r.signingDomain, r.selector]);
}

const PLATFORM = ['console.test', 'console1'];
const CUSTOM = ['news.lab.example', 'cc1'];

describe('DKIM-signed campaigns', () => {
  it("signs a campaign from the platform's address, and the gateway's own e-mails, as the platform", async () => {
    const platformSent = await sendFrom('', 'platformreader');
    assert.equal(platformSent.length, 2);
    for (const raw of platformSent) {
      assert.match(raw.toString('utf8'), /^From: .*<no-reply@console\.test>/im);
      assert.deepEqual(await signatures(raw), [PLATFORM]);
    }
    // A password reset, and a template's test send.
    assert.equal((await gw.post('/v1/auth/reset-request', { email: 'owner@lab.test' })).status, 200);
    assert.deepEqual(await signatures(await receivedBy('owner@lab.test')), [PLATFORM]);
    const test = await call(gw, 'POST', `/v1/templates/${templateId}/test`, lab, { recipients: ['tpl@signed.test'] });
    assert.equal(test.status, 200, test.text);
    assert.deepEqual(await signatures(await receivedBy('tpl@signed.test')), [PLATFORM]);
  });

  it("signs mail from a verified domain of the tenant with its key, and the platform's", async () => {
    const added = await gw.post<SendingDomain>('/v1/domains', { domain: 'news.lab.example' }, lab);
    assert.equal(added.status, 201, added.text);
    const d = added.body;
    for (const kind of ['verification', 'spf', 'dkim'] as const) {
      dns.set(record(d, kind).name, 'TXT', [record(d, kind).value]);
    }
    // The optional tracking CNAME, published: the links move to track.news.lab.example.
    dns.set(record(d, 'tracking').name, 'CNAME', [record(d, 'tracking').value]);
    const verified = await gw.post<SendingDomain>(`/v1/domains/${d._id}/verify`, {}, lab);
    assert.equal(verified.body.status, 'verified', verified.text);

    const signed = await sendFrom('hello@news.lab.example', 'signedreader');
    assert.equal(signed.length, 2);
    for (const raw of signed) {
      // Double signing: the domain's signature on top (RFC 6376 section 5.6), the platform's below.
      assert.deepEqual(await signatures(raw), [CUSTOM, PLATFORM]);
      const parsed = await parseMail(raw);
      const unsubscribe = parsed.headers.find((h) => h.key === 'list-unsubscribe')?.value ?? '';
      assert.match(unsubscribe, /^<https:\/\/track\.news\.lab\.example\/email\/unsubscribe\//);
      assert.match(parsed.html ?? '', /https:\/\/track\.news\.lab\.example\/email\/(open|click|view)\//);
    }

    // Compose takes an address on the verified domain, and its test send goes out from it, signed.
    const draft = await call<Campaign>(gw, 'POST', '/v1/campaigns', lab, { name: 'Signed test' });
    assert.equal(draft.status, 201, draft.text);
    const refused = await call<ErrorBody>(gw, 'PATCH', `/v1/campaigns/${draft.body._id}`, lab, {
      from_email: 'hello@elsewhere.example',
    });
    assert.equal(refused.status, 400, refused.text);
    assert.deepEqual(refused.body.errors, { from_email: [SENDER_NOT_VERIFIED] });
    const chosen = await call<Campaign>(gw, 'PATCH', `/v1/campaigns/${draft.body._id}`, lab, {
      from_email: 'hello@news.lab.example',
      template_id: templateId,
      subject: 'Signed test',
    });
    assert.equal(chosen.status, 200, chosen.text);
    const test = await call(gw, 'POST', `/v1/campaigns/${draft.body._id}/test`, lab, { to: ['tester@signed.test'] });
    assert.equal(test.status, 200, test.text);
    const testRaw = await receivedBy('tester@signed.test');
    assert.match(testRaw.toString('utf8'), /^From: .*<hello@news\.lab\.example>/im);
    assert.deepEqual(await signatures(testRaw), [CUSTOM, PLATFORM]);

    // An address on a domain the tenant has not verified (or that stopped verifying): the send falls back
    // to the platform's address, signed by the platform only, with the chosen address as Reply-To.
    const plain = await sendFrom('hello@elsewhere.example', 'plainreader');
    assert.equal(plain.length, 2);
    for (const raw of plain) {
      const text = raw.toString('utf8');
      assert.deepEqual(await signatures(raw), [PLATFORM]);
      assert.match(text, new RegExp(`^From: .*<${gw.config.campaigns.defaultFrom.replace(/\./g, '\\.')}>`, 'im'));
      assert.match(text, /^Reply-To: hello@elsewhere\.example/im);
      const parsed = await parseMail(raw);
      assert.ok((parsed.html ?? '').includes(`${gw.config.campaigns.trackingUrl}/email/`), "the platform's links");
      assert.doesNotMatch(parsed.html ?? '', /track\.news\.lab\.example/);
    }
  });
});

async function receivedBy(to: string): Promise<Buffer> {
  for (let i = 0; i < 200; i++) {
    const mail = peer.received.find((m) => m.to === to);
    if (mail) return mail.raw;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail to ${to}`);
}
