// Text PostgreSQL cannot store as given (a NUL, other control characters, lone surrogates) is a 400 that
// names the field, on every route that takes text: bodies, keys, query strings, path parameters, the
// import's file name; never a 500, and a lone surrogate is no longer stored as U+FFFD without a word.
// In a CSV import such text fails its row, with a reason, and the rest of the file is imported.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Papa from 'papaparse';
import { type Contact, type ImportJob, UNSTORABLE_TEXT_MESSAGE } from '../contracts';
import { type ErrorBody, startGateway, type TestGateway } from '../../test/helpers';
import { BODY_MESSAGES, MAX_JSON_DEPTH } from './json-body';

let gw: TestGateway;
let owner: string;
let admin: string;
let ids: { list: string; community: string; contact: string; widget: string; plan: string };

before(async () => {
  gw = await startGateway();
  owner = await gw.login('acmeOwner');
  admin = await gw.login('admin');
  const list = await gw.post<{ _id: string }>('/v1/lists', { name: 'Text checks' }, owner);
  const target = await gw.post<{ _id: string }>('/v1/lists', { name: 'Text checks widget' }, owner);
  const contact = await gw.post<{ _id: string }>('/v1/contacts', { email: 'text-checks@example.test' }, owner);
  const community = await gw.get<{ _id: string }>('/v1/communities/my-community', owner);
  const widget = await gw.post<{ _id: string }>(
    '/v1/widgets',
    { type: 'Subscription Widget', target_id: target.body._id, url: 'https://text.example.test' },
    owner,
  );
  const plans = await gw.get<{ records: { _id: string }[] }>('/v1/plans', admin);
  ids = {
    list: list.body._id,
    community: community.body._id,
    contact: contact.body._id,
    widget: widget.body._id,
    plan: plans.body.records[0]?._id ?? '',
  };
});
after(() => gw.close());

type Who = 'owner' | 'admin' | null;
interface Case {
  who: Who;
  method: string;
  name: string;
  path: () => string;
  /** The body with `bad` where the text goes. */
  body?: (bad: string) => unknown;
  /** The field the 400 must name. */
  field: string;
}

const checkout = (bad: string) => ({
  price_id: 'x',
  tenant_name: `Guild${bad}`,
  first_name: 'A',
  last_name: 'B',
  email: 'checkout@example.test',
  password: 'long-enough-password',
});

/** Routes of the report and more, each with the field that carries the bad text. */
const BODY_CASES: Case[] = [
  {
    who: null,
    method: 'POST',
    name: 'POST /v1/checkout',
    path: () => '/v1/checkout',
    body: checkout,
    field: 'tenant_name',
  },
  {
    who: null,
    method: 'POST',
    name: 'POST /v1/auth/login',
    path: () => '/v1/auth/login',
    body: (b) => ({ email: 'a@b.test', password: `p${b}` }),
    field: 'password',
  },
  {
    who: 'owner',
    method: 'POST',
    name: 'POST /v1/lists',
    path: () => '/v1/lists',
    body: (b) => ({ name: `List${b}` }),
    field: 'name',
  },
  {
    who: 'owner',
    method: 'PATCH',
    name: 'PATCH /v1/lists/{id}',
    path: () => `/v1/lists/${ids.list}`,
    body: (b) => ({ description: b }),
    field: 'description',
  },
  {
    who: 'owner',
    method: 'POST',
    name: 'POST /v1/contacts',
    path: () => '/v1/contacts',
    body: (b) => ({ email: 'n@example.test', first_name: `An${b}` }),
    field: 'first_name',
  },
  {
    who: 'owner',
    method: 'PATCH',
    name: 'PATCH /v1/contacts/{id}',
    path: () => `/v1/contacts/${ids.contact}`,
    body: (b) => ({ last_name: b }),
    field: 'last_name',
  },
  {
    who: 'owner',
    method: 'PATCH',
    name: 'PATCH /v1/contacts/{id}',
    path: () => `/v1/contacts/${ids.contact}`,
    body: (b) => ({ attributes: { tier: `gold${b}` } }),
    field: 'attributes.tier',
  },
  {
    who: 'owner',
    method: 'PATCH',
    name: 'PATCH /v1/communities/{id}',
    path: () => `/v1/communities/${ids.community}`,
    body: (b) => ({ short_description: b }),
    field: 'short_description',
  },
  {
    who: 'owner',
    method: 'PATCH',
    name: 'PATCH /v1/communities/{id}',
    path: () => `/v1/communities/${ids.community}`,
    body: (b) => ({ what_you_get: ['ok', b] }),
    field: 'what_you_get.1',
  },
  {
    who: 'owner',
    method: 'POST',
    name: 'POST /v1/custom-attributes',
    path: () => '/v1/custom-attributes',
    body: (b) => ({ name: `Level${b}`, key: 'level', type: 'text' }),
    field: 'name',
  },
  {
    who: 'owner',
    method: 'POST',
    name: 'POST /v1/segments',
    path: () => '/v1/segments',
    body: (b) => ({
      name: 'S',
      rule: { combinator: 'and', rules: [{ field: 'email', operator: 'beginsWith', value: b }] },
    }),
    field: 'rule.rules.0.value',
  },
  {
    who: 'owner',
    method: 'PATCH',
    name: 'PATCH /v1/widgets/{id}',
    path: () => `/v1/widgets/${ids.widget}`,
    body: (b) => ({ url: `https://x.test/${b}` }),
    field: 'url',
  },
  {
    who: 'owner',
    method: 'POST',
    name: 'POST /v1/billing/access-portal',
    path: () => '/v1/billing/access-portal',
    body: (b) => ({ return_url: b }),
    field: 'return_url',
  },
  {
    who: 'admin',
    method: 'PATCH',
    name: 'PATCH /v1/plans/{id}',
    path: () => `/v1/plans/${ids.plan}`,
    body: (b) => ({ features: ['One', `Two${b}`] }),
    field: 'features.1',
  },
  {
    who: null,
    method: 'POST',
    name: 'POST /public/widgets/{id}/signups',
    path: () => `/public/widgets/${ids.widget}/signups`,
    body: (b) => ({ email: `a${b}@b.test` }),
    field: 'email',
  },
];

const QUERY_CASES: Case[] = [
  {
    who: 'owner',
    method: 'GET',
    name: 'GET /v1/contacts?searchString=%s',
    path: () => '/v1/contacts?searchString=%s',
    field: 'searchString',
  },
  {
    who: 'owner',
    method: 'GET',
    name: 'GET /v1/contacts/export?searchString=%s',
    path: () => '/v1/contacts/export?searchString=%s',
    field: 'searchString',
  },
  {
    who: 'owner',
    method: 'GET',
    name: 'GET /v1/contacts?attributeValue=%s',
    path: () => '/v1/contacts?attributeValue=%s',
    field: 'attributeValue',
  },
  {
    who: 'owner',
    method: 'GET',
    name: 'GET /v1/lists?searchString=%s',
    path: () => '/v1/lists?searchString=%s',
    field: 'searchString',
  },
  {
    who: 'owner',
    method: 'GET',
    name: 'GET /v1/imports?searchString=%s',
    path: () => '/v1/imports?searchString=%s',
    field: 'searchString',
  },
  {
    who: 'owner',
    method: 'GET',
    name: 'GET /v1/users?searchString=%s',
    path: () => '/v1/users?searchString=%s',
    field: 'searchString',
  },
  {
    who: 'admin',
    method: 'GET',
    name: 'GET /v1/tenants?searchString=%s',
    path: () => '/v1/tenants?searchString=%s',
    field: 'searchString',
  },
  {
    who: 'owner',
    method: 'POST',
    name: 'POST /v1/imports?fileName=%s',
    path: () => '/v1/imports?fileName=%s',
    field: 'fileName',
  },
  { who: 'owner', method: 'GET', name: 'GET /v1/contacts/%s', path: () => '/v1/contacts/%s', field: 'id' },
  { who: 'owner', method: 'PATCH', name: 'PATCH /v1/lists/%s', path: () => '/v1/lists/%s', field: 'id' },
  {
    who: 'owner',
    method: 'GET',
    name: 'GET /v1/billing/change-summary/%s',
    path: () => '/v1/billing/change-summary/%s',
    field: 'planPriceId',
  },
  { who: null, method: 'GET', name: 'GET /public/widgets/%s', path: () => '/public/widgets/%s', field: 'id' },
];

function tokenOf(who: Who): string | null {
  return who === 'owner' ? owner : who === 'admin' ? admin : null;
}

describe('text PostgreSQL cannot store is a 400 naming the field', () => {
  for (const c of BODY_CASES) {
    it(`${c.name} (${c.field})`, async () => {
      for (const bad of ['\u0000', '\ud800', 'x\udc00', '\u0001']) {
        const r = await gw.request<ErrorBody>(c.path(), {
          method: c.method,
          token: tokenOf(c.who),
          body: c.body?.(bad),
        });
        assert.equal(r.status, 400, `${JSON.stringify(bad)}: ${r.text}`);
        assert.deepEqual(r.body.errors?.[c.field], [UNSTORABLE_TEXT_MESSAGE], r.text);
      }
    });
  }

  for (const c of QUERY_CASES) {
    it(`${c.name} (${c.field})`, async () => {
      for (const bad of ['%00', 'a%00b', '%01', '%7F']) {
        const r = await gw.request<ErrorBody>(c.path().replace('%s', bad), {
          method: c.method,
          token: tokenOf(c.who),
          ...(c.method === 'POST' ? { rawBody: 'email\nx@y.test\n', contentType: 'text/csv' } : {}),
          ...(c.method === 'PATCH' ? { body: {} } : {}),
        });
        assert.equal(r.status, 400, `${bad}: ${r.text}`);
        assert.deepEqual(r.body.errors?.[c.field], [UNSTORABLE_TEXT_MESSAGE], r.text);
      }
    });
  }

  it('keys of a JSON body: a custom attribute key with a NUL or a lone surrogate', async () => {
    for (const key of ['tier\u0000', '\ud800']) {
      const r = await gw.request<ErrorBody>(`/v1/contacts/${ids.contact}`, {
        method: 'PATCH',
        token: owner,
        body: { attributes: { [key]: 'gold' } },
      });
      assert.equal(r.status, 400, r.text);
      assert.deepEqual(r.body.errors, { attributes: [BODY_MESSAGES.key] });
    }
  });

  it('bytes that are not UTF-8 and nesting beyond the limit are 400s too', async () => {
    const bytes = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const res = await fetch(`${gw.url}/v1/lists`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
      body: new Uint8Array(bytes),
    });
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), { message: BODY_MESSAGES.utf8 });

    const depth = 10_000;
    const rule = `${'{"combinator":"and","rules":['.repeat(depth)}{"field":"email","operator":"=","value":"a"}${']}'.repeat(depth)}`;
    const deep = await gw.request<ErrorBody>('/v1/segments/preview', {
      token: owner,
      rawBody: `{"rule":${rule}}`,
      contentType: 'application/json',
    });
    assert.equal(deep.status, 400, deep.text);
    assert.deepEqual(deep.body.errors, { rule: [BODY_MESSAGES.depth] });
    // At the limit's edge a body is still read (and then judged by its contract).
    let shallow: unknown = 1;
    for (let i = 0; i < MAX_JSON_DEPTH - 2; i++) shallow = [shallow];
    const ok = await gw.post<ErrorBody>('/v1/lists', { name: 'Shallow', extra: shallow }, owner);
    assert.equal(ok.status, 201, ok.text);
  });

  it('a lone surrogate is refused, not stored as U+FFFD; a real emoji (a surrogate pair) is kept', async () => {
    const lone = await gw.post<ErrorBody>(
      '/v1/contacts',
      { email: 'lone@example.test', first_name: 'Ann\ud83d' },
      owner,
    );
    assert.equal(lone.status, 400);
    const stored = await gw.get<{ records: Contact[] }>('/v1/contacts?searchString=lone%40', owner);
    assert.equal(stored.body.records.length, 0);
    const pair = await gw.post<Contact>(
      '/v1/contacts',
      { email: 'pair@example.test', first_name: 'Ann\ud83d\ude00\tB' },
      owner,
    );
    assert.equal(pair.status, 201, pair.text);
    assert.equal(pair.body.first_name, 'Ann😀\tB');
  });
});

describe('CSV import: unstorable text fails its row, not the import', () => {
  it('a NUL or a control character in a cell fails that row with a reason; the other rows are imported', async () => {
    const csv = [
      'email,first_name,tier',
      'good-1@example.test,Good,gold',
      'nul@example.test,Bad\u0000Name,gold',
      'ctrl@example.test,Ctrl\u0001Name,gold',
      'attr@example.test,Attr,gold\u0002',
      'good-2@example.test,Also good,silver',
    ].join('\n');
    const up = await gw.request<ImportJob>('/v1/imports?fileName=mixed.csv', {
      token: owner,
      rawBody: `${csv}\n`,
      contentType: 'text/csv',
    });
    assert.equal(up.status, 201, up.text);
    const started = await gw.post<ImportJob>(
      `/v1/imports/${up.body._id}/start`,
      { mapping: ['email', 'first_name', 'attr:tier'], mode: 'update' },
      owner,
    );
    assert.equal(started.status, 200, started.text);
    let job = started.body;
    const end = Date.now() + 60_000;
    while (!['completed', 'failed', 'cancelled'].includes(job.status) && Date.now() < end) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      job = (await gw.get<ImportJob>(`/v1/imports/${up.body._id}`, owner)).body;
    }
    assert.equal(job.status, 'completed', JSON.stringify(job));
    assert.equal(job.created, 2);
    assert.equal(job.failed, 3);
    const res = await fetch(`${gw.url}/v1/imports/${job._id}/failures`, {
      headers: { authorization: `Bearer ${owner}` },
    });
    assert.equal(res.status, 200);
    const rows = Papa.parse<string[]>((await res.text()).replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data.slice(
      1,
    );
    assert.deepEqual(
      rows.map(([row, reason]) => [row, reason]),
      [
        ['3', 'This row has NUL characters: it is not text.'],
        ['4', `First name: ${UNSTORABLE_TEXT_MESSAGE}`],
        ['5', `Tier: ${UNSTORABLE_TEXT_MESSAGE}`],
      ],
    );
  });
});
