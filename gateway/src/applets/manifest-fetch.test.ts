// Spec section 7: with private manifests not allowed (the default when NODE_ENV=production), the gateway
// refuses loopback and private addresses, by IP literal or after resolving the host name, and never
// connects to them; APPLETS_ALLOW_PRIVATE_MANIFESTS decides.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../config';
import { type ErrorBody, startGateway } from '../../test/helpers';
import { testPlatformKeyFile } from '../../test/platform-key';
import { fetchManifest, ManifestError, type Resolver } from './manifest-fetch';
import { manifestOf } from './manifest';

let server: http.Server;
let port: number;
let hits = 0;

before(async () => {
  server = http.createServer((_req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ name: 'local', exposes: [{ name: 'Page', path: './Page' }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
after(() => server.close());

const OFF = { allowPrivate: false, timeoutMs: 2000, maxBytes: 65536 };

describe('private addresses refused', () => {
  it('loopback by IP literal and by host name, IPv6 loopback, link-local metadata: refused before any request', async () => {
    for (const url of [
      `http://127.0.0.1:${port}/mf-manifest.json`,
      `http://localhost:${port}/mf-manifest.json`,
      `http://[::1]:${port}/mf-manifest.json`,
      `http://[::ffff:127.0.0.1]:${port}/mf-manifest.json`,
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.1/mf-manifest.json',
    ]) {
      await assert.rejects(fetchManifest(url, OFF), (error: unknown) => {
        assert.ok(error instanceof ManifestError, String(error));
        assert.match(error.message, /^The manifest could not be read: its address is private/);
        return true;
      });
    }
    assert.equal(hits, 0, 'no request reached the server');
  });

  it('a host name resolving to any non-public form is refused before any request (resolver injected)', async () => {
    const forms = [
      '127.0.0.1',
      '10.1.2.3',
      '169.254.169.254',
      '::1',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::7f00:1',
      '::ffff:0:7f00:1',
      '2002:7f00:1::',
      '2001::1',
    ];
    for (const address of forms) {
      const resolved: string[] = [];
      const resolve: Resolver = (hostname, callback) => {
        resolved.push(hostname);
        // A public address first, the forbidden one after it: every address is checked.
        callback(null, [
          { address: '93.184.215.14', family: 4 },
          { address, family: address.includes(':') ? 6 : 4 },
        ]);
      };
      await assert.rejects(fetchManifest('http://applet.example/mf-manifest.json', { ...OFF, resolve }), (error) => {
        assert.ok(error instanceof ManifestError, String(error));
        assert.match(error.message, /its address is private/, address);
        return true;
      });
      assert.deepEqual(resolved, ['applet.example'], address);
    }
    assert.equal(hits, 0, 'no request reached the server');
  });

  it('each redirect is resolved and checked again', async () => {
    const redirecting = http.createServer((_req, res) => {
      res.writeHead(302, { location: 'http://rebound.example/mf-manifest.json' });
      res.end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    const redirectPort = (redirecting.address() as AddressInfo).port;
    try {
      const resolved: string[] = [];
      const resolve: Resolver = (hostname, callback) => {
        resolved.push(hostname);
        if (hostname === 'first.example') callback(null, [{ address: '127.0.0.1', family: 4 }]);
        else callback(null, [{ address: '::7f00:1', family: 6 }]);
      };
      // The first hop stands for a public server (this test's loopback server is the one address allowed).
      const isAllowed = (address: string) => address === '127.0.0.1';
      await assert.rejects(
        fetchManifest(`http://first.example:${redirectPort}/mf-manifest.json`, { ...OFF, resolve, isAllowed }),
        /its address is private/,
      );
      assert.deepEqual(resolved, ['first.example', 'rebound.example']);
    } finally {
      redirecting.close();
    }
  });

  it('allowed by the flag: the same local manifest is read', async () => {
    const manifest = await fetchManifest(`http://localhost:${port}/mf-manifest.json`, { ...OFF, allowPrivate: true });
    assert.deepEqual(manifest, { name: 'local', exposes: ['./Page'] });
  });
});

describe('the gateway with the flag off', () => {
  it('inspect and save answer 400 on manifest_url for a loopback manifest, without reaching it', async () => {
    const gw = await startGateway({ APPLETS_ALLOW_PRIVATE_MANIFESTS: '0' });
    try {
      const admin = await gw.login('admin');
      const before = hits;
      const url = `http://localhost:${port}/mf-manifest.json`;
      const inspected = await gw.post<ErrorBody>('/v1/applets/inspect', { manifest_url: url }, admin);
      assert.equal(inspected.status, 400, inspected.text);
      assert.match(inspected.body.errors?.manifest_url?.[0] ?? '', /its address is private/);
      const saved = await gw.post<ErrorBody>(
        '/v1/applets',
        { name: 'Local', slug: 'local', manifest_url: url, module: './Page' },
        admin,
      );
      assert.equal(saved.status, 400, saved.text);
      assert.match(saved.body.errors?.manifest_url?.[0] ?? '', /its address is private/);
      assert.equal(hits, before, 'no request reached the server');
    } finally {
      await gw.close();
    }
  });
});

describe('the flag', () => {
  it('APPLETS_ALLOW_PRIVATE_MANIFESTS: off in production, on otherwise, unless set', () => {
    const production = {
      NODE_ENV: 'production',
      TRACKING_URL: 'https://t.example',
      PLATFORM_DKIM_PRIVATE_KEY_FILE: testPlatformKeyFile(),
    };
    assert.equal(loadConfig({ ...production }).applets.allowPrivateManifests, false);
    assert.equal(loadConfig({}).applets.allowPrivateManifests, true);
    assert.equal(loadConfig({ NODE_ENV: 'development' }).applets.allowPrivateManifests, true);
    assert.equal(
      loadConfig({ ...production, APPLETS_ALLOW_PRIVATE_MANIFESTS: '1' }).applets.allowPrivateManifests,
      true,
    );
    assert.equal(loadConfig({ APPLETS_ALLOW_PRIVATE_MANIFESTS: 'false' }).applets.allowPrivateManifests, false);
  });
});

describe('manifest shape', () => {
  it('name and exposes paths; an entry with only a name is ./name; anything else is not a manifest', () => {
    assert.deepEqual(manifestOf({ name: 'x', exposes: [{ path: './A' }, { name: 'B' }, { path: './A' }] }), {
      name: 'x',
      exposes: ['./A', './B'],
    });
    assert.equal(manifestOf({ name: 'x' }), null);
    assert.equal(manifestOf({ exposes: [] }), null);
    assert.equal(manifestOf({ name: 'x', exposes: [42] }), null);
    assert.equal(manifestOf([]), null);
    assert.equal(manifestOf(null), null);
  });
});
