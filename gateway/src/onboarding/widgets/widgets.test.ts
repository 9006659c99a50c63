import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import type { Community, List, ListPage, WidgetDetail, WidgetPage } from '../../contracts';
import { widgets } from '../../db/schema';
import { WIDGET_MESSAGES, websiteUrlProblem } from '../onboarding-rules';
import { removeCommunities } from '../../../test/community-helpers';
import { type ErrorBody, startGateway, type TestGateway } from '../../../test/helpers';
import { call, qs } from '../../../test/audience-helpers';

describe('websiteUrlProblem (pure)', () => {
  const ok = ['https://acme.example.com', 'http://localhost:8080/page?x=1', 'https://xn--bcher-kva.example/'];
  const bad = ['acme.example.com', 'ftp://acme.example.com', 'javascript:alert(1)', 'https://', 'mailto:a@b.c', ''];
  for (const url of ok) it(`accepts ${url}`, () => assert.equal(websiteUrlProblem(url), null));
  for (const url of bad) it(`refuses "${url}"`, () => assert.equal(websiteUrlProblem(url), WIDGET_MESSAGES.url));
  it('refuses over 255 characters', () => {
    assert.equal(websiteUrlProblem(`https://a.example/${'x'.repeat(240)}`), 'Use at most 255 characters.');
  });
});

let gw: TestGateway;
let acme: string; // Acme DAO owner: demo lists
let basic: string;
let community: Community;
let newsletter: List;

before(async () => {
  gw = await startGateway();
  acme = await gw.login('acmeOwner');
  basic = await gw.login('basicOwner');
  const lists = await gw.get<ListPage>('/v1/lists?perPage=1000', acme);
  const found = lists.body.records.find((l) => l.name === 'Newsletter');
  if (!found) throw new Error('no Newsletter list in the Acme demo audience');
  newsletter = found;
});
after(() => gw.close());

function createWidget(body: unknown, token = acme) {
  return call<WidgetDetail & ErrorBody>(gw, 'POST', '/v1/widgets', token, body);
}

describe('creating widgets', () => {
  it('needs the community page first (a tenant without one, e.g. removed by hand)', async () => {
    const mine = await gw.get<Community>('/v1/communities/my-community', acme);
    assert.equal(mine.status, 200, 'every tenant gets its community at creation');
    await removeCommunities(gw, ['Acme DAO']);
    const r = await createWidget({ type: 'Login Widget', target_id: newsletter._id, url: 'https://acme.example.com' });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, { message: 'Set up your community page first.' });
    const c = await call<Community>(gw, 'POST', '/v1/communities', acme, { slug: 'acme-dao' });
    assert.equal(c.status, 201, c.text);
    community = c.body;
  });

  it('answers the widget with what its snippet needs', async () => {
    const r = await createWidget({
      type: 'Subscription Widget',
      target_id: newsletter._id,
      url: '  https://acme.example.com/join  ',
    });
    assert.equal(r.status, 201, r.text);
    assert.match(r.body._id, /^[0-9a-f-]{36}$/);
    assert.equal(r.body.type, 'Subscription Widget');
    assert.equal(r.body.target_id, newsletter._id);
    assert.equal(r.body.target_name, 'Newsletter');
    assert.equal(r.body.url, 'https://acme.example.com/join');
    assert.equal(r.body.count, 0);
    assert.equal(r.body.sdk_url, gw.config.onboarding.sdkBaseUrl);
    assert.equal(r.body.community_id, community._id);
    assert.equal(r.body.community_alias, 'acme-dao');
    const got = await gw.get<WidgetDetail>(`/v1/widgets/${r.body._id}`, acme);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, r.body);
  });

  it('refuses auto-imported lists, the community list and lists of another tenant as targets', async () => {
    const auto = await call<List>(gw, 'POST', '/v1/lists', acme, { name: 'Imported', autoimport: true });
    assert.equal(auto.status, 201, auto.text);
    const foreign = await call<List>(gw, 'POST', '/v1/lists', basic, { name: 'Basic list' });
    assert.equal(foreign.status, 201, foreign.text);
    const cases: [string, string][] = [
      [auto.body._id, WIDGET_MESSAGES.targetAutoimport],
      [community.list_id ?? '', WIDGET_MESSAGES.targetCommunity],
      [foreign.body._id, WIDGET_MESSAGES.targetUnknown],
      ['00000000-0000-4000-8000-000000000000', WIDGET_MESSAGES.targetUnknown],
      ['not-a-uuid', WIDGET_MESSAGES.targetUnknown],
    ];
    for (const [target, message] of cases) {
      const r = await createWidget({ type: 'Login Widget', target_id: target, url: 'https://acme.example.com' });
      assert.equal(r.status, 400, target);
      assert.deepEqual(r.body.errors, { target_id: [message] }, target);
    }
  });

  it('validates the type and the website address', async () => {
    const url = await createWidget({ type: 'Login Widget', target_id: newsletter._id, url: 'acme.example.com' });
    assert.equal(url.status, 400);
    assert.deepEqual(url.body.errors, { url: [WIDGET_MESSAGES.url] });
    const long = await createWidget({
      type: 'Login Widget',
      target_id: newsletter._id,
      url: `https://acme.example.com/${'x'.repeat(240)}`,
    });
    assert.equal(long.status, 400);
    assert.ok(long.body.errors?.url);
    const both = await createWidget({ type: 'Login Widget', target_id: 'nope', url: 'ftp://x' });
    assert.deepEqual(Object.keys(both.body.errors ?? {}).sort(), ['target_id', 'url']);
    const type = await createWidget({ type: 'Popup Widget', target_id: newsletter._id, url: 'https://a.example' });
    assert.equal(type.status, 400);
    assert.ok(type.body.errors?.type);
    for (const body of [{}, { type: 'Login Widget' }, [], { type: 'Login Widget', target_id: 1, url: 2 }]) {
      assert.equal((await createWidget(body)).status, 400, JSON.stringify(body));
    }
  });
});

describe('GET /v1/widgets', () => {
  before(async () => {
    for (const [type, url] of [
      ['Login Widget', 'https://b.example.org'],
      ['Subscription Widget', 'https://c.example.net/blog'],
      ['Login Widget', 'https://d.example.com/shop'],
    ] as const) {
      const r = await createWidget({ type, target_id: newsletter._id, url });
      assert.equal(r.status, 201, r.text);
    }
  });

  it('lists newest first by default, with the target name, paged', async () => {
    const r = await gw.get<WidgetPage>('/v1/widgets', acme);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.pagination.count, 4);
    assert.deepEqual(
      r.body.records.map((w) => w.url),
      [
        'https://d.example.com/shop',
        'https://c.example.net/blog',
        'https://b.example.org',
        'https://acme.example.com/join',
      ],
    );
    assert.ok(r.body.records.every((w) => w.target_name === 'Newsletter' && w.count === 0));
    assert.equal('sdk_url' in (r.body.records[0] ?? {}), false, 'grid records are Widget, not WidgetDetail');

    const p2 = await gw.get<WidgetPage>(`/v1/widgets?${qs({ perPage: 3, page: 2 })}`, acme);
    assert.deepEqual(
      p2.body.records.map((w) => w.url),
      ['https://acme.example.com/join'],
    );
    assert.deepEqual(p2.body.pagination, { starting: 4, ending: 4, count: 4, previous: 1, next: null });
  });

  it('searches on the URL and on the type', async () => {
    const byUrl = await gw.get<WidgetPage>(`/v1/widgets?${qs({ searchString: 'EXAMPLE.COM' })}`, acme);
    assert.deepEqual(byUrl.body.records.map((w) => w.url).sort(), [
      'https://acme.example.com/join',
      'https://d.example.com/shop',
    ]);
    const byType = await gw.get<WidgetPage>(`/v1/widgets?${qs({ searchString: 'subscription' })}`, acme);
    assert.equal(byType.body.pagination.count, 2);
    assert.ok(byType.body.records.every((w) => w.type === 'Subscription Widget'));
    const literal = await gw.get<WidgetPage>(`/v1/widgets?${qs({ searchString: '%' })}`, acme);
    assert.equal(literal.body.pagination.count, 0);
  });

  it('sorts by url, type and count (signups)', async () => {
    const byUrl = await gw.get<WidgetPage>(`/v1/widgets?${qs({ sortField: 'url', sortOrder: 'asc' })}`, acme);
    const urls = byUrl.body.records.map((w) => w.url);
    assert.deepEqual(urls, [...urls].sort());
    const byType = await gw.get<WidgetPage>(`/v1/widgets?${qs({ sortField: 'type', sortOrder: 'desc' })}`, acme);
    assert.deepEqual(
      byType.body.records.map((w) => w.type),
      ['Subscription Widget', 'Subscription Widget', 'Login Widget', 'Login Widget'],
    );
    const target = byUrl.body.records[2];
    assert.ok(target);
    await gw.handle.db.update(widgets).set({ signups: 7 }).where(eq(widgets.id, target._id));
    const byCount = await gw.get<WidgetPage>(`/v1/widgets?${qs({ sortField: 'count', sortOrder: 'desc' })}`, acme);
    assert.equal(byCount.body.records[0]?._id, target._id);
    assert.equal(byCount.body.records[0]?.count, 7);
  });

  it('rejects sort fields outside the whitelist', async () => {
    for (const sortField of ['tenant_id', 'signups', 'target_id; drop table widgets']) {
      const r = await gw.get<ErrorBody>(`/v1/widgets?${qs({ sortField })}`, acme);
      assert.equal(r.status, 400, sortField);
      assert.ok(r.body.errors?.sortField);
    }
  });

  it("shows only the caller tenant's widgets", async () => {
    const r = await gw.get<WidgetPage>('/v1/widgets', basic);
    assert.deepEqual(r.body.records, []);
    assert.equal(r.body.pagination.count, 0);
  });
});

describe('editing widgets', () => {
  it('changes the type, target and URL, keeps the sign-ups count, validates like create', async () => {
    const w = await createWidget({ type: 'Login Widget', target_id: newsletter._id, url: 'https://edit.example' });
    const other = await call<List>(gw, 'POST', '/v1/lists', acme, { name: 'Edited target' });
    const r = await call<WidgetDetail>(gw, 'PATCH', `/v1/widgets/${w.body._id}`, acme, {
      type: 'Subscription Widget',
      target_id: other.body._id,
      url: 'https://edited.example/join',
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.type, 'Subscription Widget');
    assert.equal(r.body.target_name, 'Edited target');
    assert.equal(r.body.url, 'https://edited.example/join');
    assert.equal(r.body.count, 0);
    assert.deepEqual((await gw.get<WidgetDetail>(`/v1/widgets/${w.body._id}`, acme)).body, r.body);

    const bad = await call<ErrorBody>(gw, 'PATCH', `/v1/widgets/${w.body._id}`, acme, {
      target_id: community.list_id,
      url: 'javascript:alert(1)',
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.errors, { target_id: [WIDGET_MESSAGES.targetCommunity], url: [WIDGET_MESSAGES.url] });
    assert.equal((await gw.get<WidgetDetail>(`/v1/widgets/${w.body._id}`, acme)).body.url, r.body.url, 'unchanged');
  });

  it("answers 404 for another tenant's widget and leaves it alone", async () => {
    const w = await createWidget({ type: 'Login Widget', target_id: newsletter._id, url: 'https://mine.example' });
    const r = await call(gw, 'PATCH', `/v1/widgets/${w.body._id}`, basic, { url: 'https://stolen.example' });
    assert.equal(r.status, 404);
    assert.equal((await gw.get<WidgetDetail>(`/v1/widgets/${w.body._id}`, acme)).body.url, 'https://mine.example');
  });
});

describe('deleting and isolation', () => {
  it("answers 404 for another tenant's widget, on read and on delete", async () => {
    const mine = (await gw.get<WidgetPage>('/v1/widgets', acme)).body.records[0];
    assert.ok(mine);
    assert.equal((await gw.get(`/v1/widgets/${mine._id}`, basic)).status, 404);
    const d = await call<ErrorBody>(gw, 'DELETE', `/v1/widgets/${mine._id}`, basic);
    assert.equal(d.status, 404);
    assert.equal(d.body.message, WIDGET_MESSAGES.notFound);
    assert.equal((await gw.get(`/v1/widgets/${mine._id}`, acme)).status, 200, 'still there');
    assert.equal((await gw.get('/v1/widgets/not-a-uuid', acme)).status, 404);
  });

  it('deletes a widget, then 404', async () => {
    const w = await createWidget({ type: 'Login Widget', target_id: newsletter._id, url: 'https://gone.example' });
    const d = await call<{ message: string }>(gw, 'DELETE', `/v1/widgets/${w.body._id}`, acme);
    assert.equal(d.status, 200);
    assert.deepEqual(d.body, { message: 'Widget deleted.' });
    assert.equal((await gw.get(`/v1/widgets/${w.body._id}`, acme)).status, 404);
    assert.equal((await call(gw, 'DELETE', `/v1/widgets/${w.body._id}`, acme)).status, 404);
  });

  it('needs manage_community (staff: 403) and a session (401)', async () => {
    const staff = await gw.login('acmeStaff');
    assert.equal((await gw.get('/v1/widgets', staff)).status, 403);
    assert.equal(
      (await createWidget({ type: 'Login Widget', target_id: newsletter._id, url: 'https://a.example' }, staff)).status,
      403,
    );
    assert.equal((await gw.get('/v1/widgets')).status, 401);
  });
});

describe('API reference', () => {
  it('documents the onboarding routes', async () => {
    const r = await gw.get<{ paths: Record<string, Record<string, unknown>> }>('/docs/json');
    assert.equal(r.status, 200, r.text);
    for (const [p, method] of [
      ['/v1/communities/my-community', 'get'],
      ['/v1/communities', 'post'],
      ['/v1/communities/{id}', 'patch'],
      ['/v1/files/s3-presigned-url', 'post'],
      ['/v1/widgets', 'get'],
      ['/v1/widgets/{id}', 'delete'],
    ] as const) {
      assert.ok(r.body.paths[p]?.[method], `${method} ${p} in ${Object.keys(r.body.paths).join(', ')}`);
    }
    // The local stand-in for S3 is not documented: clients get its URLs from the presign route.
    assert.equal(r.body.paths['/files/{*}'], undefined);
  });
});
