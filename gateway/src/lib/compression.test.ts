// The gateway's answers are compressed by Accept-Encoding above 1 KiB (brotli first, else gzip); small
// answers and clients that accept nothing get the plain bytes; a streamed CSV export still completes.
import assert from 'node:assert/strict';
import http from 'node:http';
import zlib from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { startGateway, type TestGateway } from '../../test/helpers';

let gw: TestGateway;
let owner: string;
before(async () => {
  gw = await startGateway();
  owner = await gw.login('acmeOwner');
});
after(() => gw.close());

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A GET with exactly these headers (fetch would add Accept-Encoding and decode on its own). */
function rawGet(path: string, acceptEncoding: string | null): Promise<Raw> {
  const headers: Record<string, string> = { authorization: `Bearer ${owner}` };
  if (acceptEncoding !== null) headers['accept-encoding'] = acceptEncoding;
  return new Promise((resolve, reject) => {
    http
      .get(`${gw.url}${path}`, { headers }, (res) => {
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

function decode(r: Raw): string {
  const encoding = r.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(r.body).toString('utf8');
  if (encoding === 'gzip') return zlib.gunzipSync(r.body).toString('utf8');
  assert.equal(encoding, undefined);
  return r.body.toString('utf8');
}

describe('compressed answers', () => {
  const page = '/v1/contacts?perPage=50';

  it('a large JSON answer comes as brotli, gzip or plain by Accept-Encoding, decoding to the same JSON', async () => {
    const plain = await rawGet(page, null);
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.ok(plain.body.length > 4096, `a page of 50 contacts is large (${plain.body.length} bytes)`);
    const expected = JSON.parse(plain.body.toString('utf8'));
    for (const [accept, encoding] of [
      ['br, gzip', 'br'],
      ['gzip, deflate', 'gzip'],
      ['identity', undefined],
    ] as const) {
      const r = await rawGet(page, accept);
      assert.equal(r.status, 200);
      assert.equal(r.headers['content-encoding'], encoding, accept);
      if (encoding) assert.match(String(r.headers.vary ?? ''), /accept-encoding/i);
      assert.deepEqual(JSON.parse(decode(r)), expected, accept);
      if (encoding) assert.ok(r.body.length < plain.body.length / 3, `${encoding}: ${r.body.length} bytes`);
    }
  });

  it('a small answer is sent as is', async () => {
    const r = await rawGet('/health', 'br, gzip');
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-encoding'], undefined);
  });

  it('the streamed CSV export completes, compressed', async () => {
    const plain = await rawGet('/v1/contacts/export', null);
    assert.equal(plain.status, 200);
    const r = await rawGet('/v1/contacts/export', 'gzip');
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-encoding'], 'gzip');
    assert.match(String(r.headers['content-type']), /^text\/csv/);
    assert.equal(decode(r), plain.body.toString('utf8'), 'the same file');
  });
});
