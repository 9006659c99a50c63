import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ErrorBody, type Reply, startGateway, type TestGateway } from '../../test/helpers';
import { storageUpkeep } from '../db/storage';

let gw: TestGateway;
before(async () => {
  gw = await startGateway();
});
after(() => gw.close());

/** `{message, errors?}` and nothing that looks like internals. */
function assertErrorShape(r: Reply<ErrorBody>, status: number) {
  assert.equal(r.status, status, r.text);
  assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(typeof r.body.message, 'string');
  for (const key of Object.keys(r.body)) assert.ok(['message', 'errors'].includes(key), `unexpected key ${key}`);
  if (r.body.errors) {
    for (const messages of Object.values(r.body.errors)) {
      assert.ok(Array.isArray(messages) && messages.every((m) => typeof m === 'string'));
    }
  }
  assert.doesNotMatch(r.text, /\bat \S+ \(|node_modules|\.ts:\d+|stack|statusCode/);
}

describe('bad bodies', () => {
  it('missing fields → 400 with a field error each', async () => {
    const r = await gw.post<ErrorBody>('/v1/auth/login', {});
    assertErrorShape(r, 400);
    assert.equal(r.body.message, 'Invalid input');
    assert.deepEqual(r.body.errors, { email: ['This field is required.'], password: ['This field is required.'] });
  });

  it('wrong types → 400 with field errors', async () => {
    const r = await gw.post<ErrorBody>('/v1/auth/login', { email: 42, password: ['x'] });
    assertErrorShape(r, 400);
    assert.ok(r.body.errors?.email?.length);
    assert.ok(r.body.errors?.password?.length);
    const v = await gw.post<ErrorBody>('/v1/auth/verify', { token: { $ne: null } });
    assertErrorShape(v, 400);
    assert.ok(v.body.errors?.token?.length);
  });

  it('a JSON value that is not an object → 400', async () => {
    for (const raw of ['[]', '"text"', '42', 'null']) {
      const r = await gw.request<ErrorBody>('/v1/auth/login', { rawBody: raw, contentType: 'application/json' });
      assertErrorShape(r, 400);
    }
  });

  it('a 100 KB string → 400 with the field error, not a 500', async () => {
    const huge = 'a'.repeat(100 * 1024);
    const r = await gw.post<ErrorBody>('/v1/auth/login', { email: `${huge}@example.test`, password: huge });
    assertErrorShape(r, 400);
    assert.ok(r.body.errors?.email?.length);
    assert.deepEqual(r.body.errors?.password, ['Use at most 200 characters.']);
    const reset = await gw.post<ErrorBody>('/v1/auth/reset', {
      user_id: '00000000-0000-4000-8000-000000000000',
      reset_token: huge,
      password: huge,
    });
    assertErrorShape(reset, 400);
    assert.ok(reset.body.errors?.reset_token?.length);
    assert.ok(reset.body.errors?.password?.length);
  });

  it('a body over 1 MB → 413', async () => {
    const r = await gw.post<ErrorBody>('/v1/auth/login', { email: 'a@b.test', password: 'x'.repeat(1_100_000) });
    assertErrorShape(r, 413);
  });

  it('malformed JSON → 400', async () => {
    const r = await gw.request<ErrorBody>('/v1/auth/login', {
      rawBody: '{"email": "a@b.test",',
      contentType: 'application/json',
    });
    assertErrorShape(r, 400);
    assert.match(r.body.message, /JSON/);
  });

  it('prototype pollution attempts → 400', async () => {
    const r = await gw.request<ErrorBody>('/v1/auth/login', {
      rawBody: '{"email":"a@b.test","password":"x","__proto__":{"admin":true}}',
      contentType: 'application/json',
    });
    assertErrorShape(r, 400);
  });

  it('empty JSON body → 400', async () => {
    const r = await gw.request<ErrorBody>('/v1/auth/login', {
      method: 'POST',
      rawBody: '',
      contentType: 'application/json',
    });
    assertErrorShape(r, 400);
  });

  it('wrong content type → 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const r = await gw.request<ErrorBody>('/v1/auth/login', {
        rawBody: 'email=a@b.test&password=x',
        contentType: type,
      });
      assertErrorShape(r, 415);
    }
  });

  it('a missing body on a route that needs one → 400', async () => {
    const r = await gw.request<ErrorBody>('/v1/auth/login', { method: 'POST' });
    assertErrorShape(r, 400);
  });

  it('bad query strings → 400 with the field named', async () => {
    const token = await gw.login('global');
    const r = await gw.get<ErrorBody>(`/v1/tenants?perPage=100000&searchString=${'x'.repeat(300)}`, token);
    assertErrorShape(r, 400);
    assert.ok(r.body.errors?.perPage?.length);
    assert.ok(r.body.errors?.searchString?.length);
  });
});

describe('unknown routes and the rest', () => {
  it('unknown route → 404 JSON', async () => {
    const r = await gw.get<ErrorBody>('/v1/nothing-here');
    assertErrorShape(r, 404);
    const m = await gw.request<ErrorBody>('/v1/auth/login', { method: 'DELETE' });
    assertErrorShape(m, 404);
  });

  it('GET /health', async () => {
    const r = await gw.get<{
      ok: boolean;
      jobs: { queue: string }[];
      eventLoopDelay: { sinceSeconds: number; p50Ms: number; p99Ms: number; maxMs: number };
    }>('/health');
    assert.equal(r.status, 200);
    assert.equal(r.body.ok, true);
    // With each job queue's counts (jobs/runner.ts); the database's own upkeep where it has one.
    const upkeep = [storageUpkeep(gw.handle.db)?.queue ?? []].flat();
    assert.deepEqual(
      r.body.jobs.map((q) => q.queue),
      [
        'billing.due-changes',
        'campaigns.carrier',
        'campaigns.send',
        ...upkeep,
        'domains.recheck',
        'imports.housekeeping',
        'imports.run',
        'onchain.kick',
        'onchain.watch',
        'tenants.delete',
        'transactional.expire-keys',
        'webhooks.deliver',
        'webhooks.sweep',
      ],
    );
    // And the event loop's delay since the start (health/event-loop.ts).
    assert.deepEqual(Object.keys(r.body.eventLoopDelay).sort(), ['maxMs', 'p50Ms', 'p99Ms', 'sinceSeconds']);
    assert.ok(r.body.eventLoopDelay.maxMs >= r.body.eventLoopDelay.p99Ms);
  });

  it('serves the OpenAPI document and an offline API reference', async () => {
    const doc = await gw.get<{ openapi: string; paths: Record<string, unknown> }>('/docs/json');
    assert.equal(doc.status, 200);
    assert.match(doc.body.openapi, /^3\./);
    for (const p of [
      '/v1/auth/login',
      '/v1/auth/verify',
      '/v1/auth/impersonate',
      '/v1/auth/reset-request',
      '/v1/auth/reset',
      '/v1/auth/confirm-email',
      '/v1/auth/resend-confirmation',
      '/v1/tenants/',
      '/v1/tenants/current',
      '/v1/users/',
      '/health',
    ]) {
      assert.ok(
        Object.keys(doc.body.paths).some((k) => k === p || k === p.replace(/\/$/, '')),
        `missing ${p}`,
      );
    }
    assert.ok(!Object.keys(doc.body.paths).some((k) => k.startsWith('/docs')), 'the docs routes are not documented');
    const html = await gw.request('/docs/', {});
    assert.equal(html.status, 200);
    assert.match(html.text, /swagger/i);
    assert.doesNotMatch(html.text, /https?:\/\/(?!localhost|127\.0\.0\.1)[^"' ]+\.(js|css)/, 'no CDN assets');
    // The console's security headers: no inline script, no framing, no sniffing.
    const csp = html.headers.get('content-security-policy') ?? '';
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /script-src[^;]*unsafe/);
    assert.equal(html.headers.get('x-content-type-options'), 'nosniff');
    const scripts = [...html.text.matchAll(/src="([^"]+\.js)"/g)].map((m) => m[1] ?? '');
    assert.ok(scripts.length > 0);
    for (const s of scripts) {
      const asset = await fetch(new URL(s, `${gw.url}/docs/`));
      assert.equal(asset.status, 200, s);
      assert.ok((await asset.arrayBuffer()).byteLength > 0, s);
    }
  });

  it('CORS: the console origin may call with an Authorization header; others get no grant', async () => {
    const preflight = await fetch(`${gw.url}/v1/tenants/current`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:3000',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    assert.ok(preflight.status === 204 || preflight.status === 200);
    assert.equal(preflight.headers.get('access-control-allow-origin'), 'http://localhost:3000');
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /authorization/i);
    const other = await fetch(`${gw.url}/health`, { headers: { origin: 'http://evil.example' } });
    assert.equal(other.headers.get('access-control-allow-origin'), null);
  });
});
