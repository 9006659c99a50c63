// DKIM signatures computed by dkim-signer.ts (in the off-loop pool through dkimSignMessage) verify with
// mailauth's verifier against the local authoritative DNS server, as a receiving server checks them:
// RSA and Ed25519 (RFC 8463), one or two signatures, awkward bodies and headers; and the body hash is
// mailauth's own.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { dkimSign } from 'mailauth/lib/dkim/sign';
import { startDns, type TestDns } from '../../test/dns-server';
import { verifyDkim } from '../../test/dkim-verify';
import { dkimSignMessage, dkimSignMessageWith, HEADER_LIST, type DkimKey } from './dkim';

const DOMAIN = 'signed.example.test';
let dns: TestDns;
let rsa: DkimKey;
let ed: DkimKey;

before(async () => {
  dns = await startDns();
  const r = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const e = generateKeyPairSync('ed25519');
  rsa = {
    domain: DOMAIN,
    selector: 'rsa1',
    privateKey: r.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
  ed = {
    domain: DOMAIN,
    selector: 'ed1',
    privateKey: e.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
  const rsaPublic = r.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  // RFC 8463 section 4: the bare 32-byte public key.
  const edPublic = e.publicKey.export({ type: 'spki', format: 'der' }).subarray(-32).toString('base64');
  dns.set(`rsa1._domainkey.${DOMAIN}`, 'TXT', [`v=DKIM1; k=rsa; p=${rsaPublic}`]);
  dns.set(`ed1._domainkey.${DOMAIN}`, 'TXT', [`v=DKIM1; k=ed25519; p=${edPublic}`]);
});
after(async () => {
  await dns?.close();
});

function message(body: string, extraHeaders = ''): Buffer {
  return Buffer.from(
    [
      `From: "Acme  News" <news@${DOMAIN}>`,
      'To: ann@example.org',
      'Subject: =?UTF-8?Q?Gr=C3=BC=C3=9Fe?= and a long subject that is folded',
      '\tonto a second line   with  spaces',
      `Message-ID: <1.2@${DOMAIN}>`,
      'Date: Sun, 29 Nov 2026 10:00:00 +0000',
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      'List-Unsubscribe: <https://t.example.org/u/1>',
      extraHeaders,
    ]
      .filter(Boolean)
      .join('\r\n') + `\r\n\r\n${body}`,
    'utf8',
  );
}

const BODIES: Record<string, string> = {
  plain: 'Hello Ann,\r\nsee you.\r\n',
  'spaces at line ends and runs of spaces': 'Hello  \t Ann,   \r\n  indented\t\r\nend \r\n',
  'blank lines at the end': 'Hello\r\n\r\n\r\n\r\n',
  'no final line break': 'Hello',
  empty: '',
  'non-ASCII bytes': 'Grüße, 你好\r\n',
};

const results = async (raw: Buffer) => (await verifyDkim(raw, dns.server)).map((r) => `${r.selector}:${r.result}`);

describe('DKIM signing', () => {
  for (const [name, body] of Object.entries(BODIES)) {
    it(`verifies with mailauth: ${name}`, async () => {
      const signed = await dkimSignMessage(message(body), rsa);
      assert.deepEqual(await results(signed), ['rsa1:pass']);
    });
  }

  it('has the body hash and signed fields mailauth computes for the same message', async () => {
    const raw = message(BODIES['spaces at line ends and runs of spaces'] ?? '');
    const ours = (await dkimSignMessage(raw, rsa)).toString('latin1');
    const reference = await dkimSign(raw, {
      signingDomain: DOMAIN,
      selector: 'rsa1',
      privateKey: rsa.privateKey,
      canonicalization: 'relaxed/relaxed',
      algorithm: 'rsa-sha256',
      headerList: HEADER_LIST,
      signatureData: [{ signingDomain: DOMAIN, selector: 'rsa1', privateKey: rsa.privateKey }],
    });
    const tag = (text: string, name: string) =>
      new RegExp(`[;\\s]${name}=([^;]*)`).exec(text.replace(/\r\n\s+/g, ' '))?.[1]?.replace(/\s+/g, '');
    assert.equal(tag(ours, 'bh'), tag(reference.signatures ?? '', 'bh'));
    const names = (text: string) => new Set(tag(text, 'h')?.toLowerCase().split(':'));
    assert.deepEqual(names(ours), names(reference.signatures ?? ''));
  });

  it('signs with Ed25519 (RFC 8463) beside RSA: both verify', async () => {
    const signed = await dkimSignMessageWith(message(BODIES.plain ?? ''), [rsa, ed]);
    assert.deepEqual((await results(signed)).sort(), ['ed1:pass', 'rsa1:pass']);
    assert.match(signed.toString('latin1'), /a=ed25519-sha256/);
  });

  it('leaves a message with bare line feeds to mailauth, and it still verifies', async () => {
    const raw = Buffer.from(`From: news@${DOMAIN}\nTo: ann@example.org\nSubject: LF\n\nHello\nthere\n`);
    assert.deepEqual(await results(await dkimSignMessage(raw, rsa)), ['rsa1:pass']);
  });

  it('fails a changed body, and refuses a key that is not one', async () => {
    const signed = (await dkimSignMessage(message(BODIES.plain ?? ''), rsa)).toString('latin1');
    const changed = Buffer.from(signed.replace('see you.', 'see you!'), 'latin1');
    // mailauth answers a body hash that does not match as neutral ("body hash did not verify").
    const [result] = await verifyDkim(changed, dns.server);
    assert.notEqual(result?.result, 'pass');
    assert.match(result?.info ?? '', /body hash did not verify/);
    await assert.rejects(
      dkimSignMessage(message('x'), { ...rsa, privateKey: 'not a key' }),
      /DKIM signing failed for signed\.example\.test/,
    );
  });
});
