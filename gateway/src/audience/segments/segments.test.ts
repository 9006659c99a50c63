// Segment endpoints: CRUD, preview counts, tenant isolation, permissions, bad rules.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, count, eq } from 'drizzle-orm';
import {
  MAX_SEGMENT_DEPTH,
  type Segment,
  type SegmentGroup,
  type SegmentPage,
  type SegmentPreview,
} from '../../contracts';
import { hashPassword } from '../../auth/passwords';
import { contacts, customAttributes, listMembers, lists, tenants, users } from '../../db/schema';
import { type ErrorBody, type Reply, startGateway, type TestGateway } from '../../../test/helpers';

let gw: TestGateway;
let lab: string; // owner@lab.test: the tenant under test (no seeded audience)
let basic: string; // owner@basic.test: another tenant
let labId: string;
let basicId: string;
let vipListId: string;
let scoreAttributeId: string;

const MISSING = '00000000-0000-4000-8000-000000000000';
const DAY = 86_400_000;

const subscribed: SegmentGroup = {
  combinator: 'and',
  rules: [{ field: 'status', operator: '=', value: 'subscribed' }],
};

function send<T>(method: string, path: string, body: unknown, token: string | null = lab): Promise<Reply<T>> {
  return gw.request<T>(path, { method, body, token });
}
const create = (body: unknown, token: string = lab) => send<Segment & ErrorBody>('POST', '/v1/segments', body, token);
const preview = (rule: unknown, limit?: number, token: string = lab) =>
  send<SegmentPreview & ErrorBody>(
    'POST',
    '/v1/segments/preview',
    limit === undefined ? { rule } : { rule, limit },
    token,
  );

/**
 * Lab Rats gets 30 contacts: i = 0..29, status subscribed when i % 3 != 0 (else unsubscribed),
 * in the VIP list when i % 5 == 0, score = i, e-mail c<i>@lab.example, created i days ago.
 * Basic Guild gets 10 contacts that would match every rule below.
 */
const LAB_CONTACTS = 30;
const labMatches = (keep: (i: number) => boolean) => Array.from({ length: LAB_CONTACTS }, (_, i) => i).filter(keep);

before(async () => {
  gw = await startGateway();
  const { db } = gw.handle;
  [lab, basic] = await Promise.all([gw.login('labOwner'), gw.login('basicOwner')]);
  const tenantNamed = async (name: string) => {
    const [row] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.name, name));
    if (!row) throw new Error(`no tenant ${name}`);
    return row.id;
  };
  labId = await tenantNamed('Lab Rats');
  basicId = await tenantNamed('Basic Guild');

  const [score] = await db
    .insert(customAttributes)
    .values({ tenantId: labId, name: 'Score', key: 'score', type: 'number' })
    .returning();
  scoreAttributeId = score?.id ?? '';
  const [basicScore] = await db
    .insert(customAttributes)
    .values({ tenantId: basicId, name: 'Score', key: 'score', type: 'number' })
    .returning();
  const [vip] = await db.insert(lists).values({ tenantId: labId, name: 'VIP' }).returning();
  vipListId = vip?.id ?? '';

  const now = Date.now();
  const labRows = await db
    .insert(contacts)
    .values(
      Array.from({ length: LAB_CONTACTS }, (_, i) => ({
        tenantId: labId,
        email: `c${i}@lab.example`,
        status: i % 3 === 0 ? ('unsubscribed' as const) : ('subscribed' as const),
        source: 'import' as const,
        createdAt: new Date(now - i * DAY),
        attributes: { [scoreAttributeId]: i },
      })),
    )
    .returning({ id: contacts.id, email: contacts.email });
  await db
    .insert(listMembers)
    .values(
      labRows
        .filter((r) => Number(r.email?.slice(1).split('@')[0]) % 5 === 0)
        .map((r) => ({ listId: vipListId, contactId: r.id })),
    );
  await db.insert(contacts).values(
    Array.from({ length: 10 }, (_, i) => ({
      tenantId: basicId,
      email: `c${i}@lab.example`,
      status: 'subscribed' as const,
      source: 'import' as const,
      attributes: { [basicScore?.id ?? '']: 100 },
    })),
  );
  // A user of Lab Rats without manage_contacts.
  await db.insert(users).values({
    tenantId: labId,
    email: 'viewer@lab.test',
    passwordHash: await hashPassword('viewer-pass-2026'),
    role: 'staff',
    permissions: ['view_engagement_emails'],
    emailConfirmedAt: new Date(),
  });
});
after(() => gw.close());

describe('permissions', () => {
  it('answers 401 without a token and 403 without manage_contacts', async () => {
    assert.equal((await gw.get('/v1/segments')).status, 401);
    assert.equal((await send('POST', '/v1/segments/preview', { rule: subscribed }, null)).status, 401);
    const login = await gw.request<{ token: string }>('/v1/auth/login', {
      body: { email: 'viewer@lab.test', password: 'viewer-pass-2026' },
    });
    assert.equal(login.status, 200, login.text);
    const viewer = login.body.token;
    assert.equal((await gw.get('/v1/segments', viewer)).status, 403);
    assert.equal((await create({ name: 'x', rule: subscribed }, viewer)).status, 403);
    assert.equal((await preview(subscribed, 10, viewer)).status, 403);
    assert.equal((await gw.get(`/v1/segments/${MISSING}`, viewer)).status, 403);
    assert.equal((await send('DELETE', `/v1/segments/${MISSING}`, undefined, viewer)).status, 403);
    // A global admin has no tenant and no manage_contacts.
    assert.equal((await gw.get('/v1/segments', await gw.login('global'))).status, 403);
  });
});

describe('CRUD', () => {
  it('creates, reads, lists, changes and deletes a segment', async () => {
    const rule: SegmentGroup = {
      id: 'root',
      combinator: 'and',
      rules: [
        { id: 'r1', field: 'status', operator: '=', value: 'subscribed' },
        { id: 'g1', combinator: 'or', not: true, rules: [{ id: 'r2', field: 'attr.score', operator: '>', value: 20 }] },
      ],
    };
    const made = await create({ name: '  Active fans  ', description: 'Subscribed, score up to 20', rule });
    assert.equal(made.status, 201, made.text);
    assert.equal(made.body.name, 'Active fans');
    assert.equal(made.body.description, 'Subscribed, score up to 20');
    assert.deepEqual(made.body.rule, rule);
    assert.ok(Date.parse(made.body.created_at) > 0);

    const got = await gw.get<Segment>(`/v1/segments/${made.body._id}`, lab);
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(got.body, made.body);

    const changed = await send<Segment>('PATCH', `/v1/segments/${made.body._id}`, {
      name: 'ACTIVE FANS',
      rule: subscribed,
    });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.body.name, 'ACTIVE FANS', 'its own name in another case is not a duplicate');
    assert.equal(changed.body.description, '');
    assert.deepEqual(changed.body.rule, subscribed);
    assert.ok(changed.body.updated_at >= made.body.updated_at);

    const listed = await gw.get<SegmentPage>('/v1/segments?searchString=fans', lab);
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(
      listed.body.records.map((s) => s.name),
      ['ACTIVE FANS'],
    );

    const gone = await send<{ message: string }>('DELETE', `/v1/segments/${made.body._id}`, undefined);
    assert.equal(gone.status, 200, gone.text);
    assert.equal(gone.body.message, 'Segment deleted.');
    assert.equal((await gw.get(`/v1/segments/${made.body._id}`, lab)).status, 404);
    assert.equal((await send('DELETE', `/v1/segments/${made.body._id}`, undefined)).status, 404);
  });

  it('keeps names unique per tenant, case-insensitively', async () => {
    assert.equal((await create({ name: 'Whales', rule: subscribed })).status, 201);
    const dup = await create({ name: 'WHALES', rule: subscribed });
    assert.equal(dup.status, 400, dup.text);
    assert.deepEqual(dup.body.errors, { name: ['A segment with this name already exists.'] });
    assert.equal((await create({ name: 'whales', rule: subscribed }, basic)).status, 201, 'another tenant may');

    const other = await create({ name: 'Minnows', rule: subscribed });
    const rename = await send<ErrorBody>('PATCH', `/v1/segments/${other.body._id}`, {
      name: 'whales',
      rule: subscribed,
    });
    assert.equal(rename.status, 400, rename.text);
    assert.deepEqual(rename.body.errors, { name: ['A segment with this name already exists.'] });
  });

  it('pages, sorts and searches', async () => {
    for (const name of ['Page C', 'Page A', 'Page B'])
      assert.equal((await create({ name, rule: subscribed })).status, 201);
    const byName = await gw.get<SegmentPage>(
      '/v1/segments?searchString=page&sortField=name&sortOrder=asc&perPage=2',
      lab,
    );
    assert.equal(byName.status, 200, byName.text);
    assert.deepEqual(
      byName.body.records.map((s) => s.name),
      ['Page A', 'Page B'],
    );
    assert.deepEqual(byName.body.pagination, { starting: 1, ending: 2, count: 3, previous: null, next: 2 });
    const newest = await gw.get<SegmentPage>('/v1/segments?searchString=page', lab);
    assert.deepEqual(
      newest.body.records.map((s) => s.name),
      ['Page B', 'Page A', 'Page C'],
    );
    const literal = await gw.get<SegmentPage>('/v1/segments?searchString=%25', lab);
    assert.equal(literal.body.pagination.count, 0, '% is searched literally');
    const badSort = await gw.get<ErrorBody>('/v1/segments?sortField=rule', lab);
    assert.equal(badSort.status, 400);
    assert.ok(badSort.body.errors?.sortField);
  });

  it('answers 404 for another tenant’s segment and for malformed ids', async () => {
    const theirs = await create({ name: 'Theirs', rule: subscribed }, basic);
    assert.equal(theirs.status, 201, theirs.text);
    const id = theirs.body._id;
    assert.equal((await gw.get(`/v1/segments/${id}`, lab)).status, 404);
    assert.equal((await send('PATCH', `/v1/segments/${id}`, { name: 'Mine now', rule: subscribed })).status, 404);
    const badRuleToo = await send('PATCH', `/v1/segments/${id}`, {
      name: 'x',
      rule: { combinator: 'and', rules: [{ field: 'nope', operator: '=' }] },
    });
    assert.equal(badRuleToo.status, 404, 'existence is checked before the rule');
    assert.equal((await send('DELETE', `/v1/segments/${id}`, undefined)).status, 404);
    const listed = await gw.get<SegmentPage>('/v1/segments?searchString=theirs', lab);
    assert.equal(listed.body.pagination.count, 0);
    assert.equal((await gw.get(`/v1/segments/${id}`, basic)).status, 200, 'still there for its tenant');
    for (const bad of ['not-a-uuid', "1' or '1'='1", 'x'.repeat(64)]) {
      assert.equal((await gw.get(`/v1/segments/${encodeURIComponent(bad)}`, lab)).status, 404, bad);
    }
  });
});

describe('bad rules', () => {
  it('refuses rules outside the allowlist on save and on preview, naming the problem', async () => {
    const bad: [unknown, RegExp][] = [
      [
        { combinator: 'and', rules: [{ field: 'password_hash', operator: '=', value: 'x' }] },
        /"password_hash" is not a field/,
      ],
      [
        { combinator: 'and', rules: [{ field: 'status', operator: 'contains', value: 'sub' }] },
        /Status: the operator "contains"/,
      ],
      [{ combinator: 'and', rules: [{ field: 'status', operator: '=', value: 'gone' }] }, /"gone" is not one of/],
      [{ combinator: 'and', rules: [{ field: 'list', operator: 'in', value: ['1; drop'] }] }, /is not a list id/],
      [
        { combinator: 'and', rules: [{ field: 'attr.score', operator: '>', value: 'many' }] },
        /Score >: enter a number/,
      ],
      [{ combinator: 'and', rules: [{ field: 'attr.unknown', operator: 'null' }] }, /"attr.unknown" is not a field/],
    ];
    for (const [rule, message] of bad) {
      for (const r of [await create({ name: 'Bad', rule }), await preview(rule)]) {
        assert.equal(r.status, 400, r.text);
        assert.equal(r.body.message, 'Check the segment rules.');
        assert.ok(
          r.body.errors?.rule?.some((m) => message.test(m)),
          `${r.text} should match ${message}`,
        );
      }
    }
    const listed = await gw.get<SegmentPage>('/v1/segments?searchString=bad', lab);
    assert.equal(listed.body.pagination.count, 0, 'nothing was saved');
  });

  it('names a taken name and a bad rule in one answer', async () => {
    assert.equal((await create({ name: 'Taken', rule: subscribed })).status, 201);
    const r = await create({ name: 'taken', rule: { combinator: 'and', rules: [{ field: 'nope', operator: '=' }] } });
    assert.equal(r.status, 400, r.text);
    assert.deepEqual(Object.keys(r.body.errors ?? {}).sort(), ['name', 'rule']);
  });

  it('refuses malformed bodies with 400 field errors', async () => {
    const cases: unknown[] = [
      {},
      { name: '', rule: subscribed },
      { name: 'x', rule: { combinator: 'xor', rules: [] } },
      { name: 'x', rule: { combinator: 'and', rules: 'all' } },
      { name: 'x', rule: { combinator: 'and', rules: [{ field: 'email', operator: '=', value: { $ne: 1 } }] } },
      {
        name: 'x',
        rule: { combinator: 'and', rules: Array.from({ length: 51 }, () => ({ field: 'email', operator: 'null' })) },
      },
    ];
    for (const body of cases) {
      const r = await create(body);
      assert.equal(r.status, 400, `${JSON.stringify(body)} -> ${r.text}`);
      assert.ok(r.body.errors && Object.keys(r.body.errors).length > 0, r.text);
    }
    const limit = await preview(subscribed, 51);
    assert.equal(limit.status, 400, limit.text);
    assert.ok(limit.body.errors?.limit);
  });

  it('answers 400, not 500, for very deep nesting', async () => {
    for (const depth of [MAX_SEGMENT_DEPTH + 1, 1000, 30_000]) {
      const rule = `${'{"combinator":"and","rules":['.repeat(depth)}${']}'.repeat(depth)}`;
      const r = await gw.request<ErrorBody>('/v1/segments/preview', { token: lab, rawBody: `{"rule":${rule}}` });
      assert.equal(r.status, 400, `${depth}: ${r.text.slice(0, 300)}`);
      assert.ok(r.body.errors?.rule, r.text.slice(0, 300));
    }
  });
});

describe('POST /v1/segments/preview', () => {
  const rule = (...rules: SegmentGroup['rules']): SegmentGroup => ({ combinator: 'and', rules });

  it('counts exactly the contacts that match, and shows the newest first', async () => {
    const cases: [SegmentGroup, number[]][] = [
      [rule(), labMatches(() => true)],
      [rule({ field: 'status', operator: '=', value: 'subscribed' }), labMatches((i) => i % 3 !== 0)],
      [
        rule(
          { field: 'status', operator: '=', value: 'subscribed' },
          { field: 'list', operator: 'in', value: [vipListId] },
          { field: 'attr.score', operator: '>=', value: 10 },
        ),
        labMatches((i) => i % 3 !== 0 && i % 5 === 0 && i >= 10),
      ],
      [
        {
          combinator: 'or',
          rules: [
            { field: 'list', operator: 'notIn', value: [vipListId] },
            { field: 'created_at', operator: 'lastDays', value: 3 },
          ],
        },
        labMatches((i) => i % 5 !== 0 || i < 3),
      ],
      [rule({ field: 'email', operator: 'beginsWith', value: 'C1' }), labMatches((i) => String(i).startsWith('1'))],
      [rule({ field: 'attr.score', operator: 'between', value: [5, 7] }), [5, 6, 7]],
    ];
    const [before] = await gw.handle.db.select({ n: count() }).from(contacts).where(eq(contacts.tenantId, labId));
    assert.equal(before?.n, LAB_CONTACTS, 'Lab Rats has only the contacts of this test');
    for (const [r, expected] of cases) {
      const res = await preview(r, 5);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.count, expected.length, JSON.stringify(r));
      // Newest first: contact i was created i days ago.
      assert.deepEqual(
        res.body.records.map((c) => c.email),
        expected.slice(0, 5).map((i) => `c${i}@lab.example`),
      );
    }
  });

  it('counts what the contacts grid shows for the saved segment', async () => {
    const r = rule(
      { field: 'status', operator: '=', value: 'subscribed' },
      {
        combinator: 'or',
        rules: [
          { field: 'attr.score', operator: '<', value: 5 },
          { field: 'list', operator: 'in', value: [vipListId] },
        ],
      },
    );
    const saved = await create({ name: 'Grid check', rule: r });
    assert.equal(saved.status, 201, saved.text);
    const counted = await preview(r, 0);
    const grid = await gw.get<{ pagination: { count: number } }>(
      `/v1/contacts?segmentId=${saved.body._id}&perPage=1`,
      lab,
    );
    assert.equal(grid.status, 200, grid.text);
    assert.equal(counted.body.count, labMatches((i) => i % 3 !== 0 && (i < 5 || i % 5 === 0)).length);
    assert.equal(grid.body.pagination.count, counted.body.count);
  });

  it('sends contacts in the wire shape, with lists and attributes by key', async () => {
    const res = await preview(rule({ field: 'email', operator: '=', value: 'c10@lab.example' }));
    assert.equal(res.status, 200, res.text);
    const [c] = res.body.records;
    assert.equal(c?.email, 'c10@lab.example');
    assert.deepEqual(c?.lists, [vipListId]);
    assert.deepEqual(c?.attributes, { score: 10 });
    assert.equal(c?.status, 'subscribed');
  });

  it('defaults to 10 records, and limit 0 only counts', async () => {
    const all = await preview(rule());
    assert.equal(all.body.records.length, 10);
    const countOnly = await preview(rule(), 0);
    assert.equal(countOnly.status, 200, countOnly.text);
    assert.deepEqual(countOnly.body, { count: LAB_CONTACTS, records: [] });
  });

  it("never counts another tenant's contacts", async () => {
    const same = rule({ field: 'email', operator: 'endsWith', value: '@lab.example' });
    assert.equal((await preview(same)).body.count, LAB_CONTACTS);
    const theirs = await preview(same, 50, basic);
    assert.equal(theirs.status, 200, theirs.text);
    assert.equal(theirs.body.count, 10);
    // Lab's list id means nothing in Basic Guild: its contacts are not members.
    const list = await preview(rule({ field: 'list', operator: 'in', value: [vipListId] }), 10, basic);
    assert.equal(list.body.count, 0);
    // Each tenant's own attributes: `attr.score` is Basic Guild's own attribute there.
    const score = await preview(rule({ field: 'attr.score', operator: '=', value: 100 }), 10, basic);
    assert.equal(score.body.count, 10);
    assert.equal((await preview(rule({ field: 'attr.score', operator: '=', value: 100 }))).body.count, 0);
  });

  it('a saved segment whose attribute was deleted no longer counts (400 naming the field)', async () => {
    const { db } = gw.handle;
    const [temp] = await db
      .insert(customAttributes)
      .values({ tenantId: labId, name: 'Temp', key: 'temp', type: 'text' })
      .returning();
    const r = rule({ field: 'attr.temp', operator: 'notNull' });
    assert.equal((await create({ name: 'Uses temp', rule: r })).status, 201);
    await db.delete(customAttributes).where(and(eq(customAttributes.id, temp?.id ?? MISSING)));
    const res = await preview(r);
    assert.equal(res.status, 400);
    assert.ok(
      res.body.errors?.rule?.some((m) => m.includes('"attr.temp"')),
      res.text,
    );
  });
});
