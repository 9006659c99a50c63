import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { MAX_IMAGE_BYTES, type PresignResponse, type TemplateImagePage } from '../../contracts';
import { filePathOf, isFileKey, newFileKey } from './file-keys';
import { notThatImage, sniffImageType } from './image-sniff';
import { S3Storage } from './s3-storage';
import { claimUpload, recordUpload } from './upload-rows';
import { signUpload, UPLOAD_REFUSALS, uploadSigningKey, verifyUpload, type UploadAttempt } from './upload-signature';
import { type ErrorBody, startGateway, type TestGateway } from '../../../test/helpers';
import { tenantId } from '../../../test/audience-helpers';
import { queryRows } from '../../lib/raw-sql';

// ---------------------------------------------------------------------------------------------
// A real 1x1 PNG, built here (signature, IHDR, IDAT, IEND with their CRCs)
// ---------------------------------------------------------------------------------------------

function crc32(bytes: Buffer): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function tinyPng(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0); // width
  ihdr.writeUInt32BE(1, 4); // height
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  const pixels = deflateSync(Buffer.from([0, 0x2a, 0x7f, 0xff, 0xff])); // filter byte + one pixel
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const PNG = tinyPng();

describe('sniffImageType', () => {
  const cases: [string, Buffer, string | null][] = [
    ['PNG', PNG, 'image/png'],
    ['JPEG', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]), 'image/jpeg'],
    ['GIF87a', Buffer.from('GIF87a\x01\x00\x01\x00', 'latin1'), 'image/gif'],
    ['GIF89a', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'), 'image/gif'],
    ['WebP', Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1'), 'image/webp'],
    ['RIFF that is not WebP (WAV)', Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1'), null],
    ['text', Buffer.from('just some text, not an image'), null],
    ['SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), null],
    ['empty', Buffer.alloc(0), null],
    ['truncated PNG signature', PNG.subarray(0, 4), null],
  ];
  for (const [name, bytes, expected] of cases) {
    it(`${name} -> ${String(expected)}`, () => assert.equal(sniffImageType(bytes), expected));
  }

  it('names the declared type in the refusal', () => {
    assert.equal(notThatImage('image/png'), 'The file is not a PNG image.');
    assert.equal(notThatImage('image/webp'), 'The file is not a WebP image.');
  });
});

describe('signed upload URLs (pure)', () => {
  const key = uploadSigningKey(new TextEncoder().encode('x'.repeat(40)));
  const fileKey = 'images/0a0b0c0d-0000-4000-8000-000000000001.png';
  const expires = 2_000_000_000_000;
  const signature = signUpload(key, { fileKey, contentType: 'image/png', expires });
  const attempt = (over: Partial<UploadAttempt> = {}): UploadAttempt => ({
    fileKey,
    contentType: 'image/png',
    expires: String(expires),
    signature,
    signedType: 'image/png',
    now: expires - 1,
    ...over,
  });

  it('accepts the URL it signed, until it expires', () => {
    assert.match(signature, /^[0-9a-f]{64}$/);
    assert.equal(verifyUpload(key, attempt()), 'ok');
    assert.equal(verifyUpload(key, attempt({ now: expires })), 'expired');
  });

  it('refuses missing, malformed, tampered or foreign signatures', () => {
    assert.equal(verifyUpload(key, attempt({ signature: undefined })), 'unsigned');
    assert.equal(verifyUpload(key, attempt({ expires: undefined })), 'unsigned');
    assert.equal(verifyUpload(key, attempt({ signature: 'abc' })), 'bad_signature');
    assert.equal(verifyUpload(key, attempt({ expires: '1e99' })), 'bad_signature');
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;
    assert.equal(verifyUpload(key, attempt({ signature: flipped })), 'bad_signature');
    assert.equal(verifyUpload(key, attempt({ expires: String(expires + 1000) })), 'bad_signature', 'expiry is signed');
    assert.equal(verifyUpload(key, attempt({ fileKey: fileKey.replace('1.png', '2.png') })), 'bad_signature');
    assert.equal(verifyUpload(key, attempt({ signedType: 'image/gif' })), 'bad_signature', 'type is signed');
    const other = uploadSigningKey(new TextEncoder().encode('y'.repeat(40)));
    assert.equal(verifyUpload(other, attempt()), 'bad_signature');
  });

  it('refuses a Content-Type other than the signed one', () => {
    assert.equal(verifyUpload(key, attempt({ contentType: 'image/gif' })), 'wrong_type');
  });

  it('derives its key for this purpose only (not the JWT secret itself)', () => {
    const secret = new TextEncoder().encode('x'.repeat(40));
    assert.notDeepEqual(uploadSigningKey(secret), Buffer.from(secret));
    assert.equal(uploadSigningKey(secret).length, 32);
  });
});

describe('file keys', () => {
  it('are flat images/<uuid>.<ext> keys; anything else has no path', () => {
    const key = newFileKey('image/jpeg');
    assert.match(key, /^images\/[0-9a-f-]{36}\.jpg$/);
    assert.ok(isFileKey(key));
    const root = path.join('/tmp', 'files-root');
    assert.equal(filePathOf(root, key), path.join(root, key));
    for (const bad of [
      '../jwt-secret',
      'images/../../jwt-secret',
      `images/${key.slice(7, 43)}.png/../../x`,
      `/${key}`,
      `${key}\0`,
      'images/not-a-uuid.png',
      `images/${key.slice(7, 43)}.svg`,
    ]) {
      assert.equal(filePathOf(root, bad), null, bad);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Over HTTP
// ---------------------------------------------------------------------------------------------

let gw: TestGateway;
let token: string;

before(async () => {
  gw = await startGateway();
  token = await gw.login('basicOwner');
});
after(() => gw.close());

/** The presigned URL as this test gateway is reached (the public URL is the default localhost:4000). */
function local(address: string): string {
  const u = new URL(address);
  return `${gw.url}${u.pathname}${u.search}`;
}

async function presign(type = 'image/png', who = token) {
  return gw.post<PresignResponse & ErrorBody>('/v1/files/s3-presigned-url', { type }, who);
}

async function put(url: string, body: Buffer | string, contentType = 'image/png') {
  const payload = typeof body === 'string' ? body : new Uint8Array(body);
  const res = await fetch(local(url), { method: 'PUT', headers: { 'content-type': contentType }, body: payload });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text || 'null') as ErrorBody | null };
}

describe('POST /v1/files/s3-presigned-url', () => {
  it('gives a signed, expiring URL for a flat image key, and the address to save', async () => {
    const r = await presign();
    assert.equal(r.status, 200, r.text);
    assert.match(r.body.fileKey, /^images\/[0-9a-f-]{36}\.png$/);
    assert.equal(r.body.fileUrl, `${gw.config.onboarding.publicUrl}/files/${r.body.fileKey}`);
    const url = new URL(r.body.url);
    assert.equal(`${url.origin}${url.pathname}`, r.body.fileUrl);
    const expires = Number(url.searchParams.get('expires'));
    assert.ok(Math.abs(expires - (Date.now() + gw.config.onboarding.uploadTtlMs)) < 60_000);
    assert.match(url.searchParams.get('signature') ?? '', /^[0-9a-f]{64}$/);
    assert.equal((await presign('image/webp')).body.fileKey.endsWith('.webp'), true);
  });

  it('refuses types that are not images it accepts', async () => {
    for (const type of ['image/svg+xml', 'text/html', 'application/pdf', '']) {
      const r = await presign(type);
      assert.equal(r.status, 400, type);
      assert.deepEqual(r.body.errors, { type: ['Upload a PNG, JPEG, GIF or WebP image.'] });
    }
  });

  it("needs a session: a tenant user's upload is the tenant's, a global admin's (no tenant) their own", async () => {
    assert.equal((await presign('image/png', '')).status, 401);
    const staff = await gw.login('acmeStaff');
    const tenantUpload = await presign('image/png', staff);
    assert.equal(tenantUpload.status, 200);
    const globalUpload = await presign('image/png', await gw.login('global'));
    assert.equal(globalUpload.status, 200, globalUpload.text);
    const owners = await queryRows(
      gw.handle.db,
      sql`select file_key, tenant_id::text as tenant, user_id::text as "user" from uploads
          where file_key in (${tenantUpload.body.fileKey}, ${globalUpload.body.fileKey})`,
    );
    const ownerOf = (key: string) => owners.find((r) => r.file_key === key);
    assert.deepEqual(ownerOf(tenantUpload.body.fileKey), {
      file_key: tenantUpload.body.fileKey,
      tenant: await tenantId(gw, 'Acme DAO'),
      user: null,
    });
    assert.equal(ownerOf(globalUpload.body.fileKey)?.tenant, null);
    assert.match(String(ownerOf(globalUpload.body.fileKey)?.user), /^[0-9a-f-]{36}$/);
    assert.equal((await put(globalUpload.body.url, PNG)).status, 200);
    assert.equal((await fetch(local(globalUpload.body.fileUrl))).status, 200);
  });

  it('keeps one owner per upload at the database', async () => {
    const key = newFileKey('image/png');
    await assert.rejects(
      gw.handle.db.execute(
        sql`insert into uploads (file_key, content_type, expires_at) values (${key}, 'image/png', now())`,
      ),
    );
  });
});

describe('PUT and GET /files/<fileKey>', () => {
  it('stores a real PNG and serves it back byte for byte, with safe headers', async () => {
    const { body: p } = await presign();
    const stored = await put(p.url, PNG);
    assert.equal(stored.status, 200, stored.text);
    const res = await fetch(local(p.fileUrl));
    assert.equal(res.status, 200);
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), PNG);
    assert.equal(res.headers.get('content-type'), 'image/png');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(res.headers.get('content-security-policy'), "default-src 'none'; sandbox");
    assert.equal(res.headers.get('cross-origin-resource-policy'), 'cross-origin');
  });

  it('refuses a second PUT to the same URL', async () => {
    const { body: p } = await presign();
    assert.equal((await put(p.url, PNG)).status, 200);
    const again = await put(p.url, PNG);
    assert.equal(again.status, 403);
    assert.match(again.body?.message ?? '', /already used/);
  });

  it('lets only one of two concurrent PUTs to one URL store', async () => {
    const { body: p } = await presign();
    const statuses = (await Promise.all([put(p.url, PNG), put(p.url, PNG)])).map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 403]);
  });

  it('claims an upload once at the database, and never after it expired', async () => {
    const tenant = await tenantId(gw, 'Basic Guild');
    const fileKey = newFileKey('image/png');
    await recordUpload(gw.handle.db, {
      fileKey,
      owner: { tenantId: tenant },
      contentType: 'image/png',
      expiresAt: new Date(Date.now() + 60_000),
    });
    const claims = await Promise.all([claimUpload(gw.handle.db, fileKey, 10), claimUpload(gw.handle.db, fileKey, 10)]);
    assert.deepEqual(claims.sort(), [false, true]);
    const expired = newFileKey('image/png');
    await recordUpload(gw.handle.db, {
      fileKey: expired,
      owner: { tenantId: tenant },
      contentType: 'image/png',
      expiresAt: new Date(Date.now() - 1),
    });
    assert.equal(await claimUpload(gw.handle.db, expired, 10), false);
  });

  it('refuses bytes that are not the declared image type (a text file sent as image/png)', async () => {
    const { body: p } = await presign();
    const r = await put(p.url, 'hello, I am a text file renamed to logo.png');
    assert.equal(r.status, 400);
    assert.equal(r.body?.message, 'The file is not a PNG image.');
    assert.deepEqual(r.body?.errors, { file: ['The file is not a PNG image.'] });
    assert.equal((await fetch(local(p.fileUrl))).status, 404, 'nothing stored');
    const gif = await put(p.url, Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00', 'latin1'));
    assert.equal(gif.status, 400, 'a GIF is not a PNG either');
  });

  it('refuses a Content-Type other than the signed one', async () => {
    const { body: p } = await presign('image/png');
    const r = await put(p.url, PNG, 'image/gif');
    assert.equal(r.status, 403);
    assert.equal(r.body?.message, UPLOAD_REFUSALS.wrong_type);
  });

  it('refuses a tampered or missing signature', async () => {
    const { body: p } = await presign();
    const u = new URL(p.url);
    const sig = u.searchParams.get('signature') ?? '';
    u.searchParams.set('signature', `${sig.slice(0, -1)}${sig.endsWith('a') ? 'b' : 'a'}`);
    const tampered = await put(u.toString(), PNG);
    assert.equal(tampered.status, 403);
    assert.equal(tampered.body?.message, UPLOAD_REFUSALS.bad_signature);
    u.searchParams.set('expires', String(Date.now() + 86_400_000));
    u.searchParams.set('signature', sig);
    assert.equal((await put(u.toString(), PNG)).status, 403, 'a later expiry breaks the signature');
    const unsigned = await put(p.fileUrl, PNG);
    assert.equal(unsigned.status, 403);
    assert.equal(unsigned.body?.message, UPLOAD_REFUSALS.unsigned);
    // Another key with this key's signature.
    const { body: q } = await presign();
    assert.equal((await put(`${q.fileUrl}${new URL(p.url).search}`, PNG)).status, 403);
    assert.equal((await put(p.url, PNG)).status, 200, 'the genuine URL still works');
  });

  it('refuses an expired URL', async () => {
    const { body: p } = await presign();
    const expires = Date.now() - 1000;
    const signature = signUpload(uploadSigningKey(gw.config.jwtSecret), {
      fileKey: p.fileKey,
      contentType: 'image/png',
      expires,
    });
    const r = await put(`${p.fileUrl}?expires=${expires}&signature=${signature}`, PNG);
    assert.equal(r.status, 403);
    assert.equal(r.body?.message, UPLOAD_REFUSALS.expired);
  });

  it('refuses a body over MAX_IMAGE_BYTES (413)', async () => {
    const { body: p } = await presign();
    const big = Buffer.concat([PNG, Buffer.alloc(MAX_IMAGE_BYTES + 1 - PNG.length)]);
    const r = await put(p.url, big);
    assert.equal(r.status, 413);
    assert.equal((await put(p.url, PNG)).status, 200, 'the URL was not used up');
  });

  it('refuses unknown keys and paths outside the store', async () => {
    const missing = await gw.get<ErrorBody>('/files/images/00000000-0000-4000-8000-000000000000.png');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.message, 'File not found.');
    const { body: p } = await presign();
    assert.equal((await fetch(local(p.fileUrl))).status, 404, 'issued but never stored');
    for (const bad of ['/files/..%2Fjwt-secret', '/files/images/..%2F..%2Fjwt-secret', '/files/jwt-secret']) {
      assert.equal((await gw.get(bad)).status, 404, bad);
    }
    const put404 = await fetch(`${gw.url}/files/..%2Fjwt-secret?expires=1&signature=${'0'.repeat(64)}`, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: new Uint8Array(PNG),
    });
    assert.equal(put404.status, 403);
  });

  it('lets the console origin PUT cross-origin with a Content-Type (CORS preflight)', async () => {
    const { body: p } = await presign();
    const origin = gw.config.consoleOrigins[0] ?? '';
    const res = await fetch(local(p.url), {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type',
      },
    });
    assert.ok(res.status === 204 || res.status === 200, String(res.status));
    assert.equal(res.headers.get('access-control-allow-origin'), origin);
    assert.match(res.headers.get('access-control-allow-methods') ?? '', /PUT/);
    assert.match(res.headers.get('access-control-allow-headers') ?? '', /content-type/i);
  });
});

describe("GET /v1/files/template-images (the designer's image library)", () => {
  const library = (who: string, query = '') =>
    gw.get<TemplateImagePage & ErrorBody>(`/v1/files/template-images${query}`, who);
  const uploadFor = async (who: string, body: Record<string, unknown>) => {
    const p = await gw.post<PresignResponse & ErrorBody>('/v1/files/s3-presigned-url', body, who);
    assert.equal(p.status, 200, p.text);
    assert.equal((await put(p.body.url, PNG)).status, 200);
    return p.body;
  };

  it("lists the tenant's stored template images, newest first, named as uploaded, paged", async () => {
    const acme = await gw.login('acmeOwner');
    const first = await uploadFor(acme, { type: 'image/png', purpose: 'template_image', name: 'hero.png' });
    const second = await uploadFor(acme, { type: 'image/png', purpose: 'template_image', name: 'banner.png' });
    // Not for templates (a logo, an avatar), or never stored: not in the library.
    const logo = await uploadFor(acme, { type: 'image/png' });
    const unused = await gw.post<PresignResponse>(
      '/v1/files/s3-presigned-url',
      { type: 'image/png', purpose: 'template_image', name: 'never.png' },
      acme,
    );
    const r = await library(acme);
    assert.equal(r.status, 200, r.text);
    const urls = r.body.records.map((i) => i.url);
    assert.deepEqual(urls.slice(0, 2), [second.fileUrl, first.fileUrl]);
    assert.ok(!urls.includes(logo.fileUrl) && !urls.includes(unused.body.fileUrl));
    assert.deepEqual(
      r.body.records.slice(0, 2).map((i) => [i.name, i.content_type, i.size]),
      [
        ['banner.png', 'image/png', PNG.length],
        ['hero.png', 'image/png', PNG.length],
      ],
    );
    const paged = await library(acme, '?page=2&perPage=1');
    assert.equal(paged.status, 200);
    assert.deepEqual(
      paged.body.records.map((i) => i.url),
      [first.fileUrl],
    );
    assert.equal(paged.body.pagination.count, r.body.pagination.count);
    assert.equal((await library(acme, '?perPage=1000')).status, 400);
  });

  it("shows no other tenant's images, and needs the templates permission", async () => {
    const acme = await gw.login('acmeOwner');
    const mine = await uploadFor(acme, { type: 'image/png', purpose: 'template_image', name: 'acme-only.png' });
    const other = await gw.login('labOwner');
    const theirs = await library(other);
    assert.equal(theirs.status, 200, theirs.text);
    assert.ok(!theirs.body.records.some((i) => i.url === mine.fileUrl), 'another tenant sees none of it');
    // Staff upload (their avatar) but cannot read the templates' library.
    assert.equal((await library(await gw.login('acmeStaff'))).status, 403);
    assert.equal((await library('')).status, 401);
    assert.equal((await library(await gw.login('global'))).status, 403);
  });

  it('refuses an unknown purpose and a name with control characters (400 naming the field)', async () => {
    const acme = await gw.login('acmeOwner');
    const bad = await gw.post<ErrorBody>('/v1/files/s3-presigned-url', { type: 'image/png', purpose: 'logo' }, acme);
    assert.equal(bad.status, 400);
    assert.ok(bad.body.errors?.purpose);
    const named = await gw.post<ErrorBody>(
      '/v1/files/s3-presigned-url',
      { type: 'image/png', purpose: 'template_image', name: 'a\u0000b.png' },
      acme,
    );
    assert.equal(named.status, 400);
    assert.ok(named.body.errors?.name);
  });
});

describe('S3 storage (presigning only: no network)', () => {
  const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };

  it('presigns a PutObject for the bucket and key, bound to the content type', async () => {
    const tenant = await tenantId(gw, 'Basic Guild');
    const s3 = new S3Storage(
      gw.handle.db,
      { bucket: 'console-images', region: 'eu-west-1', endpoint: null, publicBaseUrl: 'https://cdn.example.com/' },
      900_000,
      { credentials },
    );
    const p = await s3.presign({ tenantId: tenant }, 'image/jpeg');
    const url = new URL(p.url);
    assert.equal(url.host, 'console-images.s3.eu-west-1.amazonaws.com');
    assert.equal(url.pathname, `/${p.fileKey}`);
    assert.match(p.fileKey, /^images\/[0-9a-f-]{36}\.jpg$/);
    assert.match(url.searchParams.get('X-Amz-Signature') ?? '', /^[0-9a-f]{64}$/);
    assert.deepEqual((url.searchParams.get('X-Amz-SignedHeaders') ?? '').split(';'), ['content-type', 'host']);
    assert.equal(url.searchParams.get('X-Amz-Expires'), '900');
    assert.match(url.searchParams.get('X-Amz-Credential') ?? '', /^AKIDEXAMPLE\//);
    assert.ok(![...url.searchParams.keys()].some((k) => k.startsWith('x-amz-checksum')), 'no empty-body checksum');
    assert.equal(p.fileUrl, `https://cdn.example.com/${p.fileKey}`);
    assert.equal(s3.fileKeyOf(p.fileUrl), p.fileKey);
    assert.equal(s3.fileKeyOf(`https://elsewhere.example.com/${p.fileKey}`), null);
  });

  it('uses path-style addresses on a custom endpoint', async () => {
    const tenant = await tenantId(gw, 'Basic Guild');
    const s3 = new S3Storage(
      gw.handle.db,
      { bucket: 'media', region: 'us-east-1', endpoint: 'http://127.0.0.1:9000', publicBaseUrl: null },
      60_000,
      { credentials },
    );
    const p = await s3.presign({ tenantId: tenant }, 'image/png');
    const url = new URL(p.url);
    assert.equal(url.origin, 'http://127.0.0.1:9000');
    assert.equal(url.pathname, `/media/${p.fileKey}`);
    assert.equal(p.fileUrl, `http://127.0.0.1:9000/media/${p.fileKey}`);
  });
});
