// Settings that must hold before the gateway starts (config.ts).
import assert from 'node:assert/strict';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { configWarnings, loadConfig } from './config';

const base = { GATEWAY_DATA_DIR: path.join(os.tmpdir(), 'config-test'), JWT_SECRET: 'x'.repeat(32) };

describe('the tracking address (RFC 8058: one-click unsubscribe over https)', () => {
  it('refuses to start in production with an http address', () => {
    assert.throws(() => loadConfig({ ...base, NODE_ENV: 'production' }), /TRACKING_URL .* must be https \(RFC 8058\)/);
    assert.throws(() => loadConfig({ ...base, NODE_ENV: 'production', TRACKING_URL: 'http://t.example' }), /RFC 8058/);
    const https = loadConfig({ ...base, NODE_ENV: 'production', TRACKING_URL: 'https://t.example/' });
    assert.equal(https.campaigns.trackingUrl, 'https://t.example');
    assert.deepEqual(configWarnings(https), []);
  });

  it('warns elsewhere', () => {
    const dev = loadConfig({ ...base });
    assert.equal(dev.campaigns.trackingUrl.startsWith('http://'), true);
    assert.match(configWarnings(dev).join('\n'), /must be https \(RFC 8058\)/);
  });
});
