import assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { after, before, beforeEach, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import type { DnsRecord, SendingDomain, SendingDomainList } from '../contracts';
import { sendingDomains } from '../db/schema';
import { type ErrorBody, startGateway, type TestGateway } from '../../test/helpers';
import { startDns, type TestDns } from '../../test/dns-server';
import { DOMAIN_IP, DOMAIN_NO_DOT, LABEL_TOO_LONG, PUBLIC_SUFFIX } from './domain-name';
import { ALREADY_ADDED, VERIFIED_ELSEWHERE } from './sending-domains';
import { recheckDomains } from './recheck-job';
import { dkimKeyFor, dkimSignMessage } from './dkim';

const SPF_INCLUDE = '_spf.sender.test';
const TRACKING = 'track.sender.test';
const PLAN_403 = 'Your plan does not include this feature. Upgrade your plan to use it.';

let gw: TestGateway;
let dns: TestDns;
let lab: string;
let admin: string;
before(async () => {
  dns = await startDns();
  gw = await startGateway({
    DNS_SERVERS: dns.server,
    DNS_TIMEOUT_MS: '1000',
    SENDING_SPF_INCLUDE: SPF_INCLUDE,
    TRACKING_CNAME_TARGET: TRACKING,
    CONSOLE_URL: 'http://console.example:3000',
  });
  lab = await gw.login('labOwner');
  admin = await gw.login('admin');
});
after(async () => {
  await gw?.close();
  await dns?.close();
});
beforeEach(async () => {
  dns.clear();
  await gw.handle.db.delete(sendingDomains);
});

const add = (domain: string, token = lab) => gw.post<SendingDomain & ErrorBody>('/v1/domains', { domain }, token);
const verify = (id: string, token = lab) => gw.post<SendingDomain & ErrorBody>(`/v1/domains/${id}/verify`, {}, token);
const record = (d: SendingDomain, kind: DnsRecord['kind']) => {
  const r = d.records.find((x) => x.kind === kind);
  assert.ok(r, kind);
  return r;
};

/** Publishes every record of `d` as shown (DKIM's value is over 255 characters: sent as two strings). */
function publishAll(d: SendingDomain) {
  dns.set(record(d, 'verification').name, 'TXT', [record(d, 'verification').value]);
  dns.set(d.domain, 'TXT', ['google-site-verification=abc', record(d, 'spf').value]);
  dns.set(record(d, 'dkim').name, 'TXT', [record(d, 'dkim').value]);
  dns.set(record(d, 'dmarc').name, 'TXT', [record(d, 'dmarc').value]);
  dns.set(record(d, 'tracking').name, 'CNAME', [TRACKING]);
}

async function added(domain: string, token = lab): Promise<SendingDomain> {
  const r = await add(domain, token);
  assert.equal(r.status, 201, r.text);
  return r.body;
}

describe('adding a domain: the name', () => {
  it('trims, lowercases, strips the trailing dot, and stores internationalised names in punycode', async () => {
    assert.equal((await added('  Mail.Example.COM. ')).domain, 'mail.example.com');
    assert.equal((await added('bücher.example')).domain, 'xn--bcher-kva.example');
    assert.equal((await added('me.github.io')).domain, 'me.github.io');
  });

  const refused: [string, string, string][] = [
    ['a public suffix', 'co.uk', PUBLIC_SUFFIX],
    ['a private public suffix', 'github.io', PUBLIC_SUFFIX],
    ['a top-level domain', 'com.', DOMAIN_NO_DOT],
    ['an IPv4 address', '192.168.1.10', DOMAIN_IP],
    ['an IPv6 address', '[::1]', DOMAIN_IP],
    ['a name without a dot', 'localhost', DOMAIN_NO_DOT],
    ['a label over 63 characters', `${'a'.repeat(64)}.example.com`, LABEL_TOO_LONG],
  ];
  for (const [what, domain, message] of refused) {
    it(`refuses ${what}`, async () => {
      const r = await add(domain);
      assert.equal(r.status, 400, r.text);
      assert.deepEqual(r.body.errors, { domain: [message] });
    });
  }

  it('refuses a name over 253 characters, and an empty one', async () => {
    const long = `${Array.from({ length: 5 }, () => 'a'.repeat(60)).join('.')}.com`;
    const r = await add(long);
    assert.equal(r.status, 400);
    assert.match(r.body.errors?.domain?.[0] ?? '', /at most 253/);
    const empty = await add('  ');
    assert.equal(empty.status, 400);
    assert.ok(empty.body.errors?.domain?.length);
  });

  it('refuses a duplicate in the same community, whatever its spelling', async () => {
    await added('dup.example.com');
    const r = await add('DUP.example.com.');
    assert.equal(r.status, 400);
    assert.deepEqual(r.body.errors, { domain: [ALREADY_ADDED] });
  });

  it('refuses a domain another community verified; an unverified one may be added by both', async () => {
    const theirs = await added('shared.example.com', admin);
    const mine = await added('shared.example.com');
    publishAll(theirs);
    assert.equal((await verify(theirs._id, admin)).body.status, 'verified');
    // Lab's pending row cannot verify now, even with its own records published.
    publishAll(mine);
    const v = await verify(mine._id);
    assert.equal(v.status, 400);
    assert.equal(v.body.message, VERIFIED_ELSEWHERE);
    // Nor can it be added again.
    assert.equal((await gw.request(`/v1/domains/${mine._id}`, { method: 'DELETE', token: lab })).status, 200);
    const r = await add('shared.example.com');
    assert.equal(r.status, 400);
    assert.deepEqual(r.body.errors, { domain: [VERIFIED_ELSEWHERE] });
  });
});

describe('records', () => {
  it('shows the five records with a 2048-bit DKIM key and a per-domain token', async () => {
    const d = await added('example.org');
    assert.equal(d.status, 'pending');
    assert.equal(d.verified_at, null);
    assert.equal(d.last_checked_at, null);
    const rows = d.records.map(({ kind, type, name, required, state }) => ({ kind, type, name, required, state }));
    assert.deepEqual(rows, [
      {
        kind: 'verification',
        type: 'TXT',
        name: '_console-verification.example.org',
        required: true,
        state: 'pending',
      },
      { kind: 'spf', type: 'TXT', name: 'example.org', required: true, state: 'pending' },
      { kind: 'dkim', type: 'TXT', name: 'cc1._domainkey.example.org', required: true, state: 'pending' },
      { kind: 'dmarc', type: 'TXT', name: '_dmarc.example.org', required: true, state: 'pending' },
      { kind: 'tracking', type: 'CNAME', name: 'track.example.org', required: false, state: 'pending' },
    ]);
    assert.match(record(d, 'verification').value, /^console-verification=[A-Za-z0-9_-]{32}$/);
    assert.equal(record(d, 'spf').value, `v=spf1 include:${SPF_INCLUDE} ~all`);
    assert.equal(record(d, 'dmarc').value, 'v=DMARC1; p=none;');
    assert.equal(record(d, 'tracking').value, TRACKING);
    const dkim = /^v=DKIM1; k=rsa; p=([A-Za-z0-9+/=]+)$/.exec(record(d, 'dkim').value);
    assert.ok(dkim?.[1]);
    const key = createPublicKey({ key: Buffer.from(dkim[1], 'base64'), format: 'der', type: 'spki' });
    assert.equal(key.asymmetricKeyType, 'rsa');
    assert.equal(key.asymmetricKeyDetails?.modulusLength, 2048);
    // Another domain gets its own key and token.
    const other = await added('example.net');
    assert.notEqual(record(other, 'dkim').value, record(d, 'dkim').value);
    assert.notEqual(record(other, 'verification').value, record(d, 'verification').value);
    // GET /:id and the list answer the same.
    assert.deepEqual((await gw.get<SendingDomain>(`/v1/domains/${d._id}`, lab)).body, d);
    const list = await gw.get<SendingDomainList>('/v1/domains', lab);
    assert.deepEqual(
      list.body.records.map((x) => x.domain),
      ['example.net', 'example.org'],
    );
  });
});

describe('verify', () => {
  it('with nothing published: every record pending, the domain pending, the check time stored', async () => {
    const d = await added('nothing.example.com');
    const r = await verify(d._id);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.status, 'pending');
    assert.ok(r.body.last_checked_at);
    assert.deepEqual(
      r.body.records.map((x) => [x.kind, x.state, x.found]),
      [
        ['verification', 'pending', null],
        ['spf', 'pending', null],
        ['dkim', 'pending', null],
        ['dmarc', 'pending', null],
        ['tracking', 'pending', null],
      ],
    );
  });

  it('with wrong values: failed records showing what was found', async () => {
    const d = await added('wrong.example.com');
    dns.set(record(d, 'verification').name, 'TXT', ['console-verification=someone-else']);
    dns.set(d.domain, 'TXT', ['v=spf1 include:_spf.google.com ~all']);
    dns.set(record(d, 'dkim').name, 'TXT', ['v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAother']);
    dns.set(record(d, 'tracking').name, 'CNAME', ['elsewhere.example.net']);
    const r = await verify(d._id);
    assert.equal(r.body.status, 'pending');
    assert.deepEqual(
      r.body.records.map((x) => [x.kind, x.state, x.found]),
      [
        ['verification', 'failed', 'console-verification=someone-else'],
        ['spf', 'failed', 'v=spf1 include:_spf.google.com ~all'],
        ['dkim', 'failed', 'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAother'],
        ['dmarc', 'pending', null],
        ['tracking', 'failed', 'elsewhere.example.net'],
      ],
    );
    // Two SPF records are an error (RFC 7208 section 3.2) even when one is right.
    dns.set(d.domain, 'TXT', [record(d, 'spf').value, 'v=spf1 -all']);
    assert.equal(record((await verify(d._id)).body, 'spf').state, 'failed');
  });

  it('with everything published: verified (names asked in any case, DKIM in two strings), an existing DMARC kept', async () => {
    const d = await added('Good.Example.com');
    publishAll(d);
    dns.set(record(d, 'dmarc').name, 'TXT', ['v=DMARC1; p=reject; rua=mailto:d@good.example.com']);
    const r = await verify(d._id);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.status, 'verified');
    assert.ok(r.body.verified_at);
    for (const x of r.body.records) assert.equal(x.state, 'verified', x.kind);
    const dmarc = record(r.body, 'dmarc');
    assert.equal(dmarc.required, false, 'the domain has its own DMARC policy');
    assert.equal(dmarc.found, 'v=DMARC1; p=reject; rua=mailto:d@good.example.com');
    const [row] = await gw.handle.db.select().from(sendingDomains).where(eq(sendingDomains.id, d._id));
    assert.equal(row?.status, 'verified');
    assert.ok(row?.checks);
  });

  it('the daily re-check: a verified domain losing its DKIM record fails, and the owners get an e-mail', async () => {
    const d = await added('recheck.example.com');
    const ok = await added('still-ok.example.com');
    publishAll(d);
    publishAll(ok);
    assert.equal((await verify(d._id)).body.status, 'verified');
    assert.equal((await verify(ok._id)).body.status, 'verified');
    dns.set(record(d, 'dkim').name, 'TXT', []);
    const later = new Date(Date.now() + 25 * 60 * 60 * 1000);
    const { db, config, mailer } = gw.app.deps;
    const result = await recheckDomains({ db, config, mailer }, later);
    assert.equal(result.checked, 2);
    assert.deepEqual(result.failed, ['recheck.example.com']);
    const after = (await gw.get<SendingDomain>(`/v1/domains/${d._id}`, lab)).body;
    assert.equal(after.status, 'failed');
    assert.equal(after.verified_at, null);
    assert.equal(record(after, 'dkim').state, 'pending');
    assert.equal((await gw.get<SendingDomain>(`/v1/domains/${ok._id}`, lab)).body.status, 'verified');
    const mail = await gw.waitForMail('owner@lab.test', /recheck\.example\.com no longer verifies/);
    assert.match(mail.text, /DKIM/);
    assert.match(mail.text, /http:\/\/console\.example:3000\/account\/custom-domains/);
    // Checked just now: a second run the same day checks nothing and mails nobody again.
    assert.deepEqual(await recheckDomains({ db, config, mailer }, later), { checked: 0, failed: [] });
    // Publishing the record again and verifying brings it back.
    publishAll(d);
    assert.equal((await verify(d._id)).body.status, 'verified');
  });
});

describe('delete', () => {
  it('deletes the domain; a second delete is 404', async () => {
    const d = await added('gone.example.com');
    const r = await gw.request(`/v1/domains/${d._id}`, { method: 'DELETE', token: lab });
    assert.equal(r.status, 200, r.text);
    assert.equal((await gw.get(`/v1/domains/${d._id}`, lab)).status, 404);
    assert.equal((await gw.request(`/v1/domains/${d._id}`, { method: 'DELETE', token: lab })).status, 404);
  });
});

describe('who may', () => {
  it('401 without a session', async () => {
    assert.equal((await gw.get('/v1/domains')).status, 401);
    assert.equal((await gw.post('/v1/domains', { domain: 'x.example.com' })).status, 401);
  });

  it('403 for staff without manage_domains; the plan message for an owner whose plan lacks custom_domains', async () => {
    const staff = await gw.get<ErrorBody>('/v1/domains', await gw.login('acmeStaff'));
    assert.equal(staff.status, 403);
    assert.notEqual(staff.body.message, PLAN_403);
    const acme = await gw.login('acmeOwner');
    for (const r of [await gw.get<ErrorBody>('/v1/domains', acme), await add('acme.example.com', acme)]) {
      assert.equal(r.status, 403);
      assert.equal(r.body.message, PLAN_403);
    }
  });

  it("another community's domain is 404 for every route", async () => {
    const theirs = await added('theirs.example.com', admin);
    assert.equal((await gw.get(`/v1/domains/${theirs._id}`, lab)).status, 404);
    assert.equal((await verify(theirs._id)).status, 404);
    assert.equal((await gw.request(`/v1/domains/${theirs._id}`, { method: 'DELETE', token: lab })).status, 404);
    assert.deepEqual((await gw.get<SendingDomainList>('/v1/domains', lab)).body.records, []);
    assert.equal((await gw.get(`/v1/domains/not-a-uuid`, lab)).status, 404);
  });
});

describe('DKIM signing', () => {
  const message = (from: string) =>
    Buffer.from(
      [
        `From: News <${from}>`,
        'To: reader@example.net',
        'Subject: Hello from our community',
        'Date: Fri, 27 Nov 2026 00:00:00 +0000',
        'Message-ID: <m1@signed.example.com>',
        'MIME-Version: 1.0',
        'Content-Type: text/plain; charset=utf-8',
        '',
        'Hello reader,',
        'this message is signed.',
        '',
      ].join('\r\n'),
    );

  it('signs mail from a verified domain with its key; the signature verifies against the published record', async () => {
    const d = await added('signed.example.com');
    publishAll(d);
    const [row] = await gw.handle.db.select().from(sendingDomains).where(eq(sendingDomains.id, d._id));
    assert.ok(row);
    const tenantId = row.tenantId;
    // Pending: nothing to sign with.
    assert.equal(await dkimKeyFor(gw.handle.db, tenantId, 'news@signed.example.com'), null);
    assert.equal((await verify(d._id)).body.status, 'verified');
    // Another domain, or another community, is not signed for.
    assert.equal(await dkimKeyFor(gw.handle.db, tenantId, 'news@other.example.com'), null);
    const theirs = await added('theirs-signed.example.com', admin);
    publishAll(theirs);
    assert.equal((await verify(theirs._id, admin)).body.status, 'verified');
    assert.equal(await dkimKeyFor(gw.handle.db, tenantId, 'news@theirs-signed.example.com'), null);
    const key = await dkimKeyFor(gw.handle.db, tenantId, 'News@Signed.Example.com');
    assert.ok(key);
    assert.deepEqual({ domain: key.domain, selector: key.selector }, { domain: 'signed.example.com', selector: 'cc1' });

    const signed = await dkimSignMessage(message('news@signed.example.com'), key);
    // The header's tags, whatever its folding (RFC 6376 section 3.2: whitespace around tags is ignored).
    const header = /^DKIM-Signature:([\s\S]*?)\r\n(?![ \t])/.exec(signed.toString('utf8'))?.[1] ?? '';
    const tags = header.replace(/\s+/g, '');
    assert.match(tags, /^v=1;a=rsa-sha256;c=relaxed\/relaxed;d=signed\.example\.com;s=cc1;/);
    const resolver = new Resolver({ timeout: 1000, tries: 1 });
    resolver.setServers([dns.server]);
    const resolve = async (name: string, type: string) => (type === 'TXT' ? resolver.resolveTxt(name) : []);
    const result = await dkimVerify(signed, { resolver: resolve });
    assert.equal(result.results.length, 1);
    assert.equal(result.results[0]?.status.result, 'pass', result.results[0]?.info);
    assert.equal(result.results[0]?.signingDomain, 'signed.example.com');

    // A changed body no longer verifies.
    const tampered = Buffer.from(signed.toString('utf8').replace('this message is signed.', 'this one was changed.'));
    const broken = (await dkimVerify(tampered, { resolver: resolve })).results[0];
    assert.notEqual(broken?.status.result, 'pass');
    assert.match(broken?.info ?? '', /body hash did not verify/);
  });
});
