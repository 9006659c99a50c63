// Applets administration (spec sections 2 and 7): CRUD with admin_applets only, field errors in the house
// shape, the id in the PATCH body, unique slugs, the manifest read by the gateway on inspect and on every
// save, and a deleted applet leaving every tenant's enabled applets.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import {
  APPLET_MESSAGES,
  type Applet,
  type AppletBody,
  type AppletManifest,
  type AppletPage,
  type PlanCatalogue,
} from '../contracts';
import { tenants } from '../db/schema';
import { tenantId } from '../../test/audience-helpers';
import { type ErrorBody, type Reply, startGateway, type TestGateway } from '../../test/helpers';

const MANIFEST = {
  id: 'sample_applet',
  name: 'sample_applet',
  metaData: { name: 'sample_applet', remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' } },
  shared: [],
  remotes: [],
  exposes: [
    { id: 'sample_applet:Page', name: 'Page', path: './Page', assets: {} },
    { id: 'sample_applet:Widget', name: 'Widget', path: './Widget', assets: {} },
  ],
};

let gw: TestGateway;
let admin: string;
let global: string;
let owner: string;
let staff: string;
let server: http.Server;
let origin: string;
let planIds: string[];
/** The remote of '/toggle/mf-manifest.json' is down while true. */
let toggleDown = false;

before(async () => {
  server = http.createServer((req, res) => {
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body);
    };
    switch (req.url) {
      case '/mf-manifest.json':
        return send(200, JSON.stringify(MANIFEST));
      case '/other/mf-manifest.json':
        return send(200, JSON.stringify({ name: 'other', exposes: [{ name: 'Main', path: './Main' }] }));
      case '/toggle/mf-manifest.json':
        return toggleDown ? send(503, '{}') : send(200, JSON.stringify(MANIFEST));
      case '/moved':
        return send(302, '', { location: '/mf-manifest.json' });
      case '/to-ftp':
        return send(302, '', { location: 'ftp://example.com/mf-manifest.json' });
      case '/not-json':
        return send(200, '<html>hello</html>', { 'content-type': 'text/html' });
      case '/not-manifest':
        return send(200, JSON.stringify({ hello: 'world' }));
      case '/big':
        return send(200, JSON.stringify({ ...MANIFEST, padding: 'x'.repeat(5000) }));
      case '/slow':
        return; // never answers
      default:
        return send(404, '{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  gw = await startGateway({
    APPLETS_ALLOW_PRIVATE_MANIFESTS: '1',
    APPLETS_MANIFEST_TIMEOUT_MS: '700',
    APPLETS_MANIFEST_MAX_BYTES: '4096',
  });
  [admin, global, owner, staff] = await Promise.all([
    gw.login('admin'),
    gw.login('global'),
    gw.login('acmeOwner'),
    gw.login('acmeStaff'),
  ]);
  const plans = await gw.get<PlanCatalogue>('/v1/plans', admin);
  planIds = plans.body.records.map((p) => p._id);
});
after(async () => {
  server.closeAllConnections();
  server.close();
  await gw.close();
});

const body = (over: Partial<AppletBody> = {}): AppletBody => ({
  name: 'Token gate',
  slug: 'token-gate',
  description: 'Content for token holders.',
  icon: null,
  manifest_url: `${origin}/mf-manifest.json`,
  module: './Page',
  plan_ids: [],
  enabled: true,
  ...over,
});

const create = (b: unknown, token = admin) =>
  gw.request<Applet & ErrorBody>('/v1/applets', { method: 'POST', body: b, token });
const patch = (id: string, b: unknown, token = admin) =>
  gw.request<Applet & ErrorBody>(`/v1/applets/${id}`, { method: 'PATCH', body: b, token });
const inspect = (url: string, token = admin) =>
  gw.request<AppletManifest & ErrorBody>('/v1/applets/inspect', { method: 'POST', body: { manifest_url: url }, token });

function assertFieldError(r: Reply<ErrorBody>, key: string, message?: string | RegExp) {
  assert.equal(r.status, 400, r.text);
  assert.equal(r.body.message, 'Invalid input');
  const messages = r.body.errors?.[key];
  assert.ok(messages && messages.length > 0, `no error for ${key}: ${r.text}`);
  if (typeof message === 'string') assert.ok(messages.includes(message), `${key}: ${messages.join(' | ')}`);
  else if (message)
    assert.ok(
      messages.some((m) => message.test(m)),
      `${key}: ${messages.join(' | ')}`,
    );
}

describe('inspect', () => {
  it('answers the manifest’s name and exposed modules', async () => {
    const r = await inspect(`${origin}/mf-manifest.json`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { name: 'sample_applet', exposes: ['./Page', './Widget'] });
  });

  it('follows a redirect to a manifest', async () => {
    const r = await inspect(`${origin}/moved`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.name, 'sample_applet');
  });

  it('every failure is a 400 on manifest_url with the reason', async () => {
    assertFieldError(await inspect(`${origin}/missing`), 'manifest_url', /the server answered 404/);
    assertFieldError(await inspect(`${origin}/not-json`), 'manifest_url', /not JSON/);
    assertFieldError(await inspect(`${origin}/not-manifest`), 'manifest_url', /not a Module Federation manifest/);
    assertFieldError(await inspect(`${origin}/big`), 'manifest_url', /larger than 4 KB/);
    assertFieldError(await inspect(`${origin}/slow`), 'manifest_url', /no answer within 1 s/);
    assertFieldError(await inspect(`${origin}/to-ftp`), 'manifest_url', /not http\(s\)/);
    assertFieldError(await inspect('ftp://example.com/mf-manifest.json'), 'manifest_url', APPLET_MESSAGES.url);
    assertFieldError(await inspect('not a url'), 'manifest_url', APPLET_MESSAGES.url);
    assertFieldError(await inspect('http://127.0.0.1:1/mf-manifest.json'), 'manifest_url', /refused/);
  });
});

describe('create, read, list', () => {
  it('creates an applet (201) and reads it back; the list finds it', async () => {
    const basic = planIds[0] as string;
    const r = await create(body({ slug: 'crud-one', plan_ids: [basic.toUpperCase(), basic], icon: '' }));
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.slug, 'crud-one');
    assert.deepEqual(r.body.plan_ids, [basic]);
    assert.equal(r.body.icon, null);
    assert.equal(r.body.enabled, true);
    const one = await gw.get<Applet>(`/v1/applets/${r.body._id}`, admin);
    assert.deepEqual(one.body, r.body);
    const page = await gw.get<AppletPage>('/v1/applets?searchString=crud-one&perPage=1000', admin);
    assert.equal(page.status, 200, page.text);
    assert.deepEqual(page.body.records, [r.body]);
    assert.equal(page.body.pagination.count, 1);
  });

  it('sorts and pages like every list', async () => {
    for (const slug of ['sort-b', 'sort-a', 'sort-c']) {
      assert.equal((await create(body({ slug, name: `Sort ${slug.slice(-1)}` }))).status, 201);
    }
    const asc = await gw.get<AppletPage>('/v1/applets?searchString=sort-&sortField=slug&sortOrder=asc', admin);
    assert.deepEqual(
      asc.body.records.map((a) => a.slug),
      ['sort-a', 'sort-b', 'sort-c'],
    );
    const second = await gw.get<AppletPage>(
      '/v1/applets?searchString=sort-&sortField=name&sortOrder=desc&perPage=2&page=2',
      admin,
    );
    assert.deepEqual(
      second.body.records.map((a) => a.slug),
      ['sort-a'],
    );
    assert.deepEqual(second.body.pagination, { starting: 3, ending: 3, count: 3, previous: 1, next: null });
    assertFieldError(await gw.get<ErrorBody>('/v1/applets?perPage=1001', admin), 'perPage');
    assertFieldError(await gw.get<ErrorBody>('/v1/applets?sortField=manifest_url', admin), 'sortField');
  });

  it('an unknown or malformed id is 404', async () => {
    assert.equal((await gw.get('/v1/applets/00000000-0000-4000-8000-000000000000', admin)).status, 404);
    assert.equal((await gw.get('/v1/applets/nope', admin)).status, 404);
  });
});

describe('validation', () => {
  it('field errors per field', async () => {
    const r = await create({
      name: '  ',
      slug: 'Not A Slug',
      description: 'x'.repeat(501),
      icon: 'javascript:alert(1)',
      manifest_url: 'file:///etc/passwd',
      module: 'Page',
      plan_ids: 'basic',
      enabled: 'yes',
    });
    assertFieldError(r, 'name', APPLET_MESSAGES.name);
    assertFieldError(r, 'slug', APPLET_MESSAGES.slug);
    assertFieldError(r, 'description');
    assertFieldError(r, 'icon', APPLET_MESSAGES.url);
    assertFieldError(r, 'manifest_url', APPLET_MESSAGES.url);
    assertFieldError(r, 'module', APPLET_MESSAGES.module);
    assertFieldError(r, 'plan_ids');
    assertFieldError(r, 'enabled');
    assertFieldError(await create(body({ slug: 'a' })), 'slug', APPLET_MESSAGES.slug);
    assertFieldError(await create(body({ slug: 'a'.repeat(51) })), 'slug', APPLET_MESSAGES.slug);
    assert.equal((await create(body({ slug: 'a'.repeat(50) }))).status, 201);
  });

  it('the module must be one the manifest exposes; an unreadable manifest is a 400 on manifest_url', async () => {
    assertFieldError(
      await create(body({ slug: 'no-module', module: './Missing' })),
      'module',
      APPLET_MESSAGES.moduleNotExposed,
    );
    assertFieldError(
      await create(body({ slug: 'no-manifest', manifest_url: `${origin}/missing` })),
      'manifest_url',
      /the server answered 404/,
    );
    const listed = await gw.get<AppletPage>('/v1/applets?searchString=no-m', admin);
    assert.equal(listed.body.pagination.count, 0, 'nothing stored');
  });

  it('plans must be in the catalogue', async () => {
    const r = await create(
      body({ slug: 'bad-plans', plan_ids: [planIds[0] as string, '00000000-0000-4000-8000-000000000000'] }),
    );
    assertFieldError(r, 'plan_ids', APPLET_MESSAGES.planUnknown);
    assertFieldError(
      await create(body({ slug: 'bad-plans', plan_ids: ['basic'] })),
      'plan_ids',
      APPLET_MESSAGES.planUnknown,
    );
  });

  it('slugs are unique: a field error on create and on edit', async () => {
    const first = await create(body({ slug: 'unique-one' }));
    const second = await create(body({ slug: 'unique-two' }));
    assert.equal(first.status, 201, first.text);
    assert.equal(second.status, 201, second.text);
    assertFieldError(await create(body({ slug: 'unique-one' })), 'slug', APPLET_MESSAGES.slugTaken);
    assertFieldError(
      await patch(second.body._id, { _id: second.body._id, slug: 'unique-one' }),
      'slug',
      APPLET_MESSAGES.slugTaken,
    );
    // Its own slug is fine.
    const same = await patch(first.body._id, { _id: first.body._id, slug: 'unique-one', name: 'Renamed' });
    assert.equal(same.status, 200, same.text);
  });
});

describe('edit', () => {
  it('PATCH changes what it names; the id in the body must be the path’s', async () => {
    const created = await create(body({ slug: 'edit-me' }));
    assert.equal(created.status, 201, created.text);
    const id = created.body._id;
    const r = await patch(id, {
      _id: id,
      name: 'Edited',
      manifest_url: `${origin}/other/mf-manifest.json`,
      module: './Main',
      plan_ids: planIds.slice(0, 2),
      enabled: false,
      icon: 'https://cdn.example.com/icon.png',
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.name, 'Edited');
    assert.equal(r.body.slug, 'edit-me');
    assert.equal(r.body.module, './Main');
    assert.deepEqual(r.body.plan_ids, planIds.slice(0, 2));
    assert.equal(r.body.enabled, false);
    assert.equal(r.body.icon, 'https://cdn.example.com/icon.png');
    assert.ok(r.body.updated_at >= created.body.updated_at);

    // A new manifest that lacks the stored module: the module is checked against it.
    assertFieldError(await patch(id, { _id: id, manifest_url: `${origin}/mf-manifest.json` }), 'module');
    const other = await create(body({ slug: 'edit-other' }));
    assertFieldError(await patch(id, { _id: other.body._id, name: 'X' }), '_id', APPLET_MESSAGES.idMismatch);
    assertFieldError(await patch(id, { name: 'No id' }), '_id');
    assert.equal((await gw.get<Applet>(`/v1/applets/${id}`, admin)).body.name, 'Edited');
    const unknown = '00000000-0000-4000-8000-000000000000';
    assert.equal((await patch(unknown, { _id: unknown, name: 'X' })).status, 404);
  });
});

describe('a remote that is down', () => {
  it('an edit that keeps the address and the module does not read the manifest; changing either does', async () => {
    const created = await create(body({ slug: 'toggle-down', manifest_url: `${origin}/toggle/mf-manifest.json` }));
    assert.equal(created.status, 201, created.text);
    const id = created.body._id;
    toggleDown = true;
    try {
      const disabled = await patch(id, { _id: id, enabled: false, name: 'Down for now' });
      assert.equal(disabled.status, 200, disabled.text);
      assert.equal(disabled.body.enabled, false);
      assertFieldError(await patch(id, { _id: id, module: './Widget' }), 'manifest_url', /the server answered 503/);
    } finally {
      toggleDown = false;
    }
    const moved = await patch(id, { _id: id, module: './Widget' });
    assert.equal(moved.status, 200, moved.text);
  });
});

describe('delete', () => {
  it('removes the applet and its place in every tenant’s enabled applets', async () => {
    const keep = await create(body({ slug: 'delete-keep' }));
    const gone = await create(body({ slug: 'delete-gone' }));
    const basicGuild = await tenantId(gw, 'Basic Guild');
    await gw.handle.db
      .update(tenants)
      .set({ enabledApplets: [gone.body._id, keep.body._id] })
      .where(eq(tenants.id, basicGuild));
    const r = await gw.request<{ message: string }>(`/v1/applets/${gone.body._id}`, { method: 'DELETE', token: admin });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.message, APPLET_MESSAGES.deleted);
    assert.equal((await gw.get(`/v1/applets/${gone.body._id}`, admin)).status, 404);
    const [row] = await gw.handle.db
      .select({ enabled: tenants.enabledApplets })
      .from(tenants)
      .where(eq(tenants.id, basicGuild));
    assert.deepEqual(row?.enabled, [keep.body._id]);
    const again = await gw.request(`/v1/applets/${gone.body._id}`, { method: 'DELETE', token: admin });
    assert.equal(again.status, 404);
  });
});

describe('permissions', () => {
  it('admin_applets only: tenant users (even tenant admins) get 403 everywhere; no session is 401', async () => {
    const created = await create(body({ slug: 'perm-check' }));
    assert.equal(created.status, 201, created.text);
    const id = created.body._id;
    for (const token of [owner, staff]) {
      const calls: Reply[] = await Promise.all([
        gw.get('/v1/applets', token),
        gw.get(`/v1/applets/${id}`, token),
        create(body({ slug: 'perm-other' }), token),
        patch(id, { _id: id, name: 'Nope' }, token),
        gw.request(`/v1/applets/${id}`, { method: 'DELETE', token }),
        inspect(`${origin}/mf-manifest.json`, token),
      ]);
      assert.deepEqual(
        calls.map((c) => c.status),
        [403, 403, 403, 403, 403, 403],
      );
    }
    assert.equal((await gw.get('/v1/applets', null)).status, 401);
    // The global admin holds admin_applets too.
    assert.equal((await gw.get('/v1/applets', global)).status, 200);
    assert.equal((await gw.get<Applet>(`/v1/applets/${id}`, admin)).body.name, 'Token gate');
  });
});
