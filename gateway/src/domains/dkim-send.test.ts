// A campaign from an address at a verified sending domain goes out DKIM-signed with that domain's key
// (domains/dkim.ts, called by campaigns/sender/send-job.ts); the signature verifies against the DNS
// record the console showed, served by a local authoritative server.
import assert from 'node:assert/strict';
import { Resolver } from 'node:dns/promises';
import { after, before, describe, it } from 'node:test';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import type { DnsRecord, SendingDomain, Template } from '../contracts';
import { enqueueCampaign } from '../campaigns/sender/queue';
import { startGateway, type TestGateway } from '../../test/helpers';
import { call, tenantId } from '../../test/audience-helpers';
import {
  createCampaign,
  createList,
  generousPlans,
  insertContacts,
  startSmtpPeer,
  TEMPLATE_MJML,
  waitForStatus,
  type SmtpPeer,
} from '../../test/campaign-send-helpers';
import { startDns, type TestDns } from '../../test/dns-server';

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
  });
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

describe('DKIM-signed campaigns', () => {
  it('signs mail from a verified domain of the tenant, and only that', async () => {
    const added = await gw.post<SendingDomain>('/v1/domains', { domain: 'news.lab.example' }, lab);
    assert.equal(added.status, 201, added.text);
    const d = added.body;
    for (const kind of ['verification', 'spf', 'dkim'] as const) {
      dns.set(record(d, kind).name, 'TXT', [record(d, kind).value]);
    }
    const verified = await gw.post<SendingDomain>(`/v1/domains/${d._id}/verify`, {}, lab);
    assert.equal(verified.body.status, 'verified', verified.text);

    const signed = await sendFrom('hello@news.lab.example', 'signedreader');
    assert.equal(signed.length, 2);
    const resolver = new Resolver({ timeout: 1000, tries: 1 });
    resolver.setServers([dns.server]);
    const resolve = async (name: string, type: string) => (type === 'TXT' ? resolver.resolveTxt(name) : []);
    for (const raw of signed) {
      const result = await dkimVerify(raw, { resolver: resolve });
      assert.equal(result.results.length, 1);
      assert.equal(result.results[0]?.status.result, 'pass', result.results[0]?.info);
      assert.equal(result.results[0]?.signingDomain, 'news.lab.example');
      assert.equal(result.results[0]?.selector, 'cc1');
    }

    // Another domain (not verified by this tenant): sent unsigned.
    const plain = await sendFrom('hello@elsewhere.example', 'plainreader');
    assert.equal(plain.length, 2);
    for (const raw of plain) assert.doesNotMatch(raw.toString('utf8'), /^DKIM-Signature:/im);
  });
});
