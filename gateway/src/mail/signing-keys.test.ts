// Which keys sign a message (signing-keys.ts): the platform's, or a verified custom domain's instead;
// both with PLATFORM_DKIM_COSIGN=on, the domain's on top (RFC 6376 section 5.6), each verifying on its own.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { verifyDkimAgainst } from '../../test/dkim-verify';
import { testPlatformKeyFile } from '../../test/platform-key';
import { dkimSignMessageWith } from '../domains/index';
import { loadPlatformDkim, platformDkimRecord } from './platform-dkim';
import { signingKeys } from './signing-keys';

const platform = loadPlatformDkim({ PLATFORM_DKIM_PRIVATE_KEY_FILE: testPlatformKeyFile() }, '', 'console.test')!;
const cosigning = { ...platform, cosign: true };
const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
const tenant = {
  domain: 'news.tenant.example',
  selector: 'cc1',
  privateKey: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
};
const tenantPublic = pair.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');

describe('signingKeys', () => {
  it("signs with the platform's key, or a verified domain's; both when the platform co-signs", () => {
    assert.equal(platform.cosign, false, 'PLATFORM_DKIM_COSIGN is off by default');
    assert.deepEqual(signingKeys(null, platform), [platform]);
    assert.deepEqual(signingKeys(tenant, platform), [tenant]);
    assert.deepEqual(signingKeys(null, cosigning), [cosigning]);
    assert.deepEqual(signingKeys(tenant, cosigning), [tenant, cosigning]);
    // A tenant domain that is the platform's own: one signature is all a receiver can use.
    const same = { ...tenant, domain: 'console.test' };
    assert.deepEqual(signingKeys(same, cosigning), [same]);
    // PLATFORM_DKIM=off: the mail server signs for the platform; a verified domain still signs here.
    assert.deepEqual(signingKeys(tenant, null), [tenant]);
    assert.deepEqual(signingKeys(null, null), []);
  });

  it('double-signs: the first key ends on top, and each signature verifies', async () => {
    const raw = Buffer.from(
      'From: News <hello@news.tenant.example>\r\nTo: reader@example.test\r\nSubject: Hi\r\n' +
        'Date: Sun, 29 Nov 2026 10:00:00 +0000\r\nMessage-ID: <1@news.tenant.example>\r\n\r\nHello.\r\n',
    );
    const signed = await dkimSignMessageWith(raw, signingKeys(tenant, cosigning));
    const headers = signed.toString('utf8').split('\r\n\r\n')[0] ?? '';
    const domains = [...headers.matchAll(/^DKIM-Signature:[^]*?\bd=([^;\s]+)/gim)].map((m) => m[1]);
    assert.deepEqual(domains, ['news.tenant.example', 'console.test']);
    const results = await verifyDkimAgainst(signed, {
      'cc1._domainkey.news.tenant.example': `v=DKIM1; k=rsa; p=${tenantPublic}`,
      [platformDkimRecord(platform).name]: platformDkimRecord(platform).value,
    });
    assert.deepEqual(
      results.map((r) => [r.signingDomain, r.result]),
      [
        ['news.tenant.example', 'pass'],
        ['console.test', 'pass'],
      ],
    );
  });
});
