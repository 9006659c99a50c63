// Settings that must hold before the gateway starts (config.ts).
import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { configWarnings, loadConfig } from './config';
import { PLATFORM_KEY_MISSING, PLATFORM_SIGNING_OFF, platformDkimRecord } from './mail/platform-dkim';
import { testPlatformKeyFile } from '../test/platform-key';

const base = { GATEWAY_DATA_DIR: path.join(os.tmpdir(), 'config-test'), JWT_SECRET: 'x'.repeat(32) };
const keyFile = testPlatformKeyFile();

describe('the tracking address (RFC 8058: one-click unsubscribe over https)', () => {
  it('refuses to start in production with an http address', () => {
    assert.throws(() => loadConfig({ ...base, NODE_ENV: 'production' }), /TRACKING_URL .* must be https \(RFC 8058\)/);
    assert.throws(() => loadConfig({ ...base, NODE_ENV: 'production', TRACKING_URL: 'http://t.example' }), /RFC 8058/);
    const https = loadConfig({
      ...base,
      NODE_ENV: 'production',
      TRACKING_URL: 'https://t.example/',
      PLATFORM_DKIM_PRIVATE_KEY_FILE: keyFile,
    });
    assert.equal(https.campaigns.trackingUrl, 'https://t.example');
    assert.deepEqual(configWarnings(https), []);
  });

  it('warns elsewhere', () => {
    const dev = loadConfig({ ...base });
    assert.equal(dev.campaigns.trackingUrl.startsWith('http://'), true);
    assert.match(configWarnings(dev).join('\n'), /must be https \(RFC 8058\)/);
  });
});

describe("the platform's DKIM key", () => {
  it("is generated once outside production, kept in the data directory, for MAIL_FROM's domain", () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'config-dkim-'));
    try {
      const first = loadConfig({ ...base, GATEWAY_DATA_DIR: dataDir, MAIL_FROM: 'Us <hello@Mail.Example.com>' });
      const dkim = first.platformDkim;
      assert.ok(dkim);
      assert.equal(dkim.domain, 'mail.example.com');
      assert.equal(dkim.selector, 'console1');
      assert.equal(dkim.generatedFile, path.join(dataDir, 'platform-dkim.pem'));
      assert.equal(fs.statSync(dkim.generatedFile).mode & 0o777, 0o600);
      const details = createPublicKey(dkim.privateKey).asymmetricKeyDetails;
      assert.equal(details?.modulusLength, 2048);
      // A restart signs with the same key: the published record stays right.
      const again = loadConfig({ ...base, GATEWAY_DATA_DIR: dataDir, MAIL_FROM: 'hello@mail.example.com' });
      assert.equal(again.platformDkim?.publicKey, dkim.publicKey);
      assert.deepEqual(platformDkimRecord(dkim), {
        type: 'TXT',
        name: 'console1._domainkey.mail.example.com',
        value: `v=DKIM1; k=rsa; p=${dkim.publicKey}`,
      });
      assert.equal(
        createPublicKey({ key: Buffer.from(dkim.publicKey, 'base64'), format: 'der', type: 'spki' })
          .export({ format: 'pem', type: 'spki' })
          .toString(),
        createPublicKey(dkim.privateKey).export({ format: 'pem', type: 'spki' }).toString(),
      );
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses to start in production without a key, and takes one from a file or the environment', () => {
    const production = { ...base, NODE_ENV: 'production', TRACKING_URL: 'https://t.example' };
    assert.throws(() => loadConfig(production), { message: PLATFORM_KEY_MISSING });
    const fromFile = loadConfig({ ...production, PLATFORM_DKIM_PRIVATE_KEY_FILE: keyFile });
    assert.equal(fromFile.platformDkim?.generatedFile, null);
    assert.equal(fromFile.platformDkim?.domain, 'console.test');
    // One line, as .env files and secret stores often hold it: `\n` read as line breaks.
    const oneLine = fs.readFileSync(keyFile, 'utf8').trim().replace(/\n/g, '\\n');
    const fromEnv = loadConfig({
      ...production,
      PLATFORM_DKIM_PRIVATE_KEY: oneLine,
      PLATFORM_DKIM_DOMAIN: 'Bounce.Console.Example',
      PLATFORM_DKIM_SELECTOR: 's2026',
      CAMPAIGN_FROM: 'news@console.example',
      MAIL_FROM: 'Console <no-reply@console.example>',
    });
    assert.equal(fromEnv.platformDkim?.publicKey, fromFile.platformDkim?.publicKey);
    assert.equal(fromEnv.platformDkim?.domain, 'bounce.console.example');
    assert.equal(fromEnv.platformDkim?.selector, 's2026');
    // Relaxed alignment (RFC 7489): a subdomain of the From's organizational domain is enough.
    assert.deepEqual(configWarnings(fromEnv), []);
  });

  it('is off with PLATFORM_DKIM=off (the mail server signs), in production too, with a warning', () => {
    const off = loadConfig({
      ...base,
      NODE_ENV: 'production',
      TRACKING_URL: 'https://t.example',
      PLATFORM_DKIM: 'off',
    });
    assert.equal(off.platformDkim, null);
    assert.deepEqual(configWarnings(off), [PLATFORM_SIGNING_OFF]);
    assert.throws(() => loadConfig({ ...base, PLATFORM_DKIM: 'no' }), /PLATFORM_DKIM must be "on" or "off"/);
  });

  it('refuses settings that cannot sign', () => {
    const withKey = { ...base, PLATFORM_DKIM_PRIVATE_KEY_FILE: keyFile };
    const pem = (key: ReturnType<typeof generateKeyPairSync>['privateKey']) =>
      key.export({ type: 'pkcs8', format: 'pem' }).toString();
    const small = pem(generateKeyPairSync('rsa', { modulusLength: 512 }).privateKey);
    const ed25519 = pem(generateKeyPairSync('ed25519').privateKey);
    assert.throws(() => loadConfig({ ...base, PLATFORM_DKIM_PRIVATE_KEY: small }), /512 bits: .* at least 1024/);
    assert.throws(() => loadConfig({ ...base, PLATFORM_DKIM_PRIVATE_KEY: ed25519 }), /must be an RSA private key/);
    assert.throws(() => loadConfig({ ...base, PLATFORM_DKIM_PRIVATE_KEY: 'nope' }), /is not a PEM private key/);
    assert.throws(
      () => loadConfig({ ...withKey, PLATFORM_DKIM_PRIVATE_KEY: small }),
      /Set PLATFORM_DKIM_PRIVATE_KEY or PLATFORM_DKIM_PRIVATE_KEY_FILE, not both/,
    );
    assert.throws(
      () => loadConfig({ ...base, PLATFORM_DKIM_PRIVATE_KEY_FILE: '/nonexistent/key.pem' }),
      /PLATFORM_DKIM_PRIVATE_KEY_FILE cannot be read/,
    );
    assert.throws(() => loadConfig({ ...withKey, PLATFORM_DKIM_SELECTOR: 'a_b' }), /PLATFORM_DKIM_SELECTOR must be/);
    assert.throws(() => loadConfig({ ...withKey, PLATFORM_DKIM_DOMAIN: 'localhost' }), /PLATFORM_DKIM_DOMAIN/);
  });

  it('warns when the platform From addresses would not align with its signature', () => {
    const config = loadConfig({
      ...base,
      PLATFORM_DKIM_PRIVATE_KEY_FILE: keyFile,
      TRACKING_URL: 'https://t.example',
      CAMPAIGN_FROM: 'news@elsewhere.example',
    });
    assert.deepEqual(configWarnings(config), [
      'CAMPAIGN_FROM (news@elsewhere.example) is not on PLATFORM_DKIM_DOMAIN (console.test): its mail is signed, ' +
        'but DMARC does not pass without an aligned signature (RFC 7489).',
    ]);
  });
});

describe("the inbound receiver's certificate", () => {
  it('takes the key and the certificate together, or neither', () => {
    const env = { ...base, PLATFORM_DKIM_PRIVATE_KEY_FILE: keyFile };
    assert.equal(loadConfig(env).campaigns.inbound.tls, null);
    assert.deepEqual(
      loadConfig({ ...env, INBOUND_TLS_KEY_FILE: '/k.pem', INBOUND_TLS_CERT_FILE: '/c.pem' }).campaigns.inbound.tls,
      { keyFile: '/k.pem', certFile: '/c.pem' },
    );
    assert.throws(() => loadConfig({ ...env, INBOUND_TLS_KEY_FILE: '/k.pem' }), /set both, or neither/);
  });
});

describe('PLATFORM_DKIM_COSIGN', () => {
  it('is off unless set on, and refuses other values', () => {
    const env = { ...base, PLATFORM_DKIM_PRIVATE_KEY_FILE: keyFile };
    assert.equal(loadConfig(env).platformDkim?.cosign, false);
    assert.equal(loadConfig({ ...env, PLATFORM_DKIM_COSIGN: 'on' }).platformDkim?.cosign, true);
    assert.throws(
      () => loadConfig({ ...env, PLATFORM_DKIM_COSIGN: 'yes' }),
      /PLATFORM_DKIM_COSIGN must be "on" or "off"/,
    );
  });
});

describe('the API key rate limit', () => {
  it('defaults to 20 a second with a burst of 40, takes 0 for none, and refuses nonsense', () => {
    const options = { ...base, PLATFORM_DKIM_PRIVATE_KEY_FILE: keyFile };
    assert.deepEqual(loadConfig(options).apiKeyRateLimit, { rate: 20, burst: 40 });
    assert.deepEqual(loadConfig({ ...options, API_KEY_RATE_LIMIT: '2.5' }).apiKeyRateLimit, { rate: 2.5, burst: 5 });
    assert.deepEqual(loadConfig({ ...options, API_KEY_RATE_LIMIT: '10', API_KEY_RATE_BURST: '12' }).apiKeyRateLimit, {
      rate: 10,
      burst: 12,
    });
    assert.equal(loadConfig({ ...options, API_KEY_RATE_LIMIT: '0' }).apiKeyRateLimit.rate, 0);
    assert.throws(() => loadConfig({ ...options, API_KEY_RATE_LIMIT: 'fast' }), /API_KEY_RATE_LIMIT/);
  });
});
