// A download completes or is seen to fail: a failure before the first byte is an ordinary error answer,
// a failure after it is logged and ends the connection without the end of the body (never a clean end).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import zlib from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import compress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import { badRequest, installErrorHandling } from '../errors';
import { headedChunks, sendStreamedFile } from './streamed-file';

const file = { contentType: 'text/csv; charset=utf-8', fileName: 'test.csv' };

let app: FastifyInstance;
let base: string;
const logLines: string[] = [];

/** Chunks of rows that compress poorly (so compressed output starts before the failure). */
const CHUNKS = Array.from({ length: 5 }, (_, i) => `${randomBytes(32 * 1024).toString('hex')}${i}\n`);
const WHOLE = `head\n${CHUNKS.join('')}`;

async function* rows(count: number, failAfter: number | null, failWith: () => Error = () => new Error('db gone')) {
  for (let i = 0; i < count; i++) {
    // As a database read would: the earlier chunks go out meanwhile.
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    if (failAfter !== null && i === failAfter) throw failWith();
    yield CHUNKS[i] ?? '';
  }
}

before(async () => {
  const logs = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  app = Fastify({ logger: { level: 'error', stream: logs } });
  installErrorHandling(app);
  // As the gateway: answers above 1 KiB compressed by Accept-Encoding, streams included.
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  app.get('/whole', (_req, reply) => sendStreamedFile(reply, headedChunks('head\n', rows(5, null)), file));
  app.get('/mid-stream', (_req, reply) => sendStreamedFile(reply, headedChunks('head\n', rows(5, 3)), file));
  app.get('/first-read', (_req, reply) => sendStreamedFile(reply, headedChunks('head\n', rows(5, 0)), file));
  app.get('/first-read-bad-input', (_req, reply) =>
    sendStreamedFile(
      reply,
      headedChunks(
        'head\n',
        rows(5, 0, () => badRequest('Bad filter.')),
      ),
      file,
    ),
  );
  app.get('/empty', (_req, reply) => sendStreamedFile(reply, headedChunks('head\n', rows(0, null)), file));
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
after(() => app.close());

interface RawResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The body ended with its last chunk (a clean end). */
  complete: boolean;
}

/** A plain HTTP/1.1 GET that tells a clean end from a cut connection. */
function rawGet(path: string, encoding = 'identity'): Promise<RawResult> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${path}`, { headers: { 'accept-encoding': encoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      const done = () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks),
          complete: res.complete,
        });
      res.on('end', done);
      res.on('error', done);
      res.on('aborted', done);
    });
    req.on('error', reject);
  });
}

describe('streamed downloads', () => {
  it('a whole file ends cleanly, with its attachment headers', async () => {
    const r = await rawGet('/whole');
    assert.equal(r.status, 200);
    assert.equal(r.complete, true);
    assert.equal(r.headers['content-disposition'], 'attachment; filename="test.csv"');
    assert.equal(r.body.toString(), WHOLE);
    const empty = await rawGet('/empty');
    assert.equal(empty.complete, true);
    assert.equal(empty.body.toString(), 'head\n');
  });

  it('a failure in the first read is an error answer, not a 200', async () => {
    const r = await rawGet('/first-read');
    assert.equal(r.status, 500);
    assert.match(String(r.headers['content-type']), /^application\/json/);
    assert.equal(r.headers['content-disposition'], undefined);
    assert.deepEqual(JSON.parse(r.body.toString()), {
      message: 'Something went wrong on our side. Please try again later.',
    });
    const bad = await rawGet('/first-read-bad-input');
    assert.equal(bad.status, 400);
    assert.deepEqual(JSON.parse(bad.body.toString()), { message: 'Bad filter.' });
  });

  it('a failure after the first byte is logged and cuts the connection before the end', async () => {
    logLines.length = 0;
    const r = await rawGet('/mid-stream');
    assert.equal(r.status, 200);
    assert.equal(r.complete, false, 'the transfer must not end cleanly');
    assert.ok(r.body.toString().startsWith(`head\n${CHUNKS[0]}`));
    assert.ok(r.body.length < WHOLE.length);
    assert.ok(
      logLines.some((line) => line.includes('download failed while streaming') && line.includes('test.csv')),
      logLines.join(''),
    );
  });

  it('compressed, never a clean end either: an error answer while nothing was sent, else a cut', async () => {
    const seen: string[] = [];
    for (const encoding of ['br', 'gzip']) {
      const r = await rawGet('/mid-stream', encoding);
      seen.push(`${encoding} ${r.status}`);
      if (r.status === 200) {
        // The compressor had sent bytes: the connection is cut before the end.
        assert.equal(r.headers['content-encoding'], encoding);
        assert.equal(r.complete, false, `${encoding}: the transfer must not end cleanly`);
      } else {
        // The compressor still held everything: nothing had gone out, the failure is an ordinary answer.
        assert.equal(r.status, 500);
        assert.equal(r.complete, true);
        assert.equal(r.headers['content-disposition'], undefined);
        assert.match(String(r.headers['content-type']), /^application\/json/);
      }
    }
    console.log(`mid-stream failure, compressed: ${seen.join(', ')}`);
    const res = await fetch(`${base}/mid-stream`);
    if (res.status === 200) await assert.rejects(res.text());
    else assert.equal(res.status, 500);
    const whole = await fetch(`${base}/whole`);
    assert.equal(await whole.text(), WHOLE);
    const br = await rawGet('/whole', 'br');
    assert.equal(zlib.brotliDecompressSync(br.body).toString(), WHOLE);
  });
});
