// What a browser downloads is what counts: the production servers (scripts/serve.mjs) send the build's
// precompressed siblings by Accept-Encoding (brotli first, then gzip, else the original), with
// Vary: Accept-Encoding, for the shell and for every remote; the SPA fallback and the runtime config
// still work.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { createAppServer } from '../../scripts/serve.mjs';
import { E2E_ENV } from '../lib/system.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const servers: http.Server[] = [];

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function get(port: string, pathname: string, acceptEncoding?: string): Promise<Raw> {
  const headers: Record<string, string> = acceptEncoding ? { 'accept-encoding': acceptEncoding } : {};
  return new Promise((resolve, reject) => {
    http
      .get(`http://localhost:${port}${pathname}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

function decoded(r: Raw): Buffer {
  const encoding = r.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(r.body);
  if (encoding === 'gzip') return zlib.gunzipSync(r.body);
  return r.body;
}

const listening = (server: http.Server) =>
  new Promise<void>((resolve) => (server.listening ? resolve() : server.once('listening', () => resolve())));

before(async () => {
  const env = { ...process.env, ...E2E_ENV, QUIET: '1' };
  for (const pkg of ['shell', 'mfe-engagement']) servers.push(createAppServer(pkg, env));
  await Promise.all(servers.map(listening));
});
after(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));

describe('precompressed builds served by Accept-Encoding', () => {
  const files = [
    { port: E2E_ENV.SHELL_PORT, pathname: '/main.js', file: path.join(root, 'shell', 'dist', 'main.js') },
    {
      port: E2E_ENV.MFE_ENGAGEMENT_PORT,
      pathname: '/remoteEntry.js',
      file: path.join(root, 'mfe-engagement', 'dist', 'remoteEntry.js'),
    },
  ];

  for (const { port, pathname, file } of files) {
    test(`${path.basename(path.dirname(path.dirname(file)))}${pathname}: br, gzip or the original`, async () => {
      const original = fs.readFileSync(file);
      for (const [accept, encoding] of [
        ['gzip, deflate, br', 'br'],
        ['gzip', 'gzip'],
        [undefined, undefined],
      ] as const) {
        const r = await get(port, pathname, accept);
        assert.equal(r.status, 200);
        assert.equal(r.headers['content-encoding'], encoding, String(accept));
        assert.match(String(r.headers['content-type']), /javascript/);
        assert.match(String(r.headers.vary), /Accept-Encoding/i);
        assert.ok(decoded(r).equals(original), `${accept}: the same bytes once decoded`);
        if (encoding) assert.ok(r.body.length < original.length / 2, `${encoding} is smaller`);
      }
    });
  }

  test('the SPA fallback (a deep link) and /config/remotes.json still answer', async () => {
    const deep = await get(E2E_ENV.SHELL_PORT, '/engagement/contacts', 'br');
    assert.equal(deep.status, 200);
    assert.match(decoded(deep).toString('utf8'), /<html/i);
    const config = await get(E2E_ENV.SHELL_PORT, '/config/remotes.json', 'br');
    assert.equal(config.status, 200);
    assert.ok(JSON.parse(decoded(config).toString('utf8')).remotes.mfe_engagement);
  });
});
